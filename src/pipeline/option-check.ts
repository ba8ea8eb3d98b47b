// Option rules: zod schemas whose messages say what a value must be, and the one check that turns a broken rule into a PipelineOptionError.

import { z } from 'zod';
import { PipelineOptionError } from './errors.js';

/**
 * A rule given as a function that says what is wrong with a value, or `undefined` when nothing is.
 * For values zod has no type for (functions, URL objects, compiled maps) and checks that need our
 * own code (host names, rel tokens); the message is the one an option error shows.
 */
export function rule<T>(problem: (value: unknown) => string | undefined): z.ZodType<T> {
  return z.custom<T>().superRefine((value, context) => {
    const message = problem(value);
    if (message !== undefined) context.addIssue({ code: 'custom', message });
  });
}

/** The rule of a cache option: an object with `get` and `set` functions, described as `shape`. */
export function storeRule<T>(shape: string): z.ZodType<T> {
  return rule<T>((value) => {
    const store = value as { get?: unknown; set?: unknown } | null;
    const usable = typeof store === 'object' && store !== null && typeof store.get === 'function' && typeof store.set === 'function';
    return usable ? undefined : `must be ${shape}`;
  });
}

/** The rule of an options object; unknown keys are ignored, as unified plugins do. */
export function optionsObject<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.object(shape, { error: 'must be an object' });
}

// The brand of options objects built from values already checked against the same rules.
const CHECKED = Symbol('checked options');

/**
 * Note that `options` was built only from values already checked against the rules its plugin
 * checks (processArticle builds each plugin's options from a context it checked), so the plugin
 * does not check them a second time. Returns `options`, branded.
 */
export function alreadyChecked<T extends object>(options: T): T {
  (options as Record<symbol, unknown>)[CHECKED] = true;
  return options;
}

/**
 * Check `value` against `schema`, once, before any file is processed. The first problem becomes a
 * PipelineOptionError worded `${subject(path)} ${message}.`, e.g.
 * "rehypeArticleHeadings option `idPrefix` must be letters, digits, "-" or "_" only."
 */
export function checkOptions(schema: z.ZodType, value: unknown, subject: (path: string) => string): void {
  if (typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CHECKED] === true) return;
  const result = schema.safeParse(value);
  if (result.success) return;
  const issue = result.error.issues[0]!;
  throw new PipelineOptionError(`${subject(pathOf(issue.path))} ${issue.message}.`);
}

/** How a plugin's option errors name the option: "rehypeArticleHeadings option `idPrefix`". */
export function pluginOption(plugin: string): (path: string) => string {
  return (path) => (path === '' ? `${plugin} options` : `${plugin} option \`${path}\``);
}

/** An issue path as a user writes it: `serviceLinks.domainId`, `site[1]`. */
function pathOf(path: readonly PropertyKey[]): string {
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`)).join('');
}
