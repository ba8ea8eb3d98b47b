// What kind of value each request parameter takes, read from the request schema, for coercing CSV cells and wording messages.
import type { z } from 'zod';
import {
  ALL_PARAMETER_NAMES,
  ARTICLE_TYPES,
  POLISH_SETTING_KEYS,
  TYPE_PARAMETER_SHAPES,
  articleTypesForParameter,
  commonParametersShape,
  type ArticleType,
} from '../contract/request-schema.js';

export type ParameterKind = 'boolean' | 'number' | 'string' | 'enum' | 'list' | 'object' | 'other';

/**
 * The article types that accept a parameter; none for a name the service does not know. Checks
 * the name first, since `articleTypesForParameter` uses `in`, which is true for `__proto__` and
 * `constructor`.
 */
export function typesAccepting(name: string): ArticleType[] {
  return ALL_PARAMETER_NAMES.includes(name) ? articleTypesForParameter(name) : [];
}

/** The zod schema of a parameter, from the common shape or the first article type that has it. */
export function parameterSchema(name: string): z.ZodType | undefined {
  if (name === 'articleType') return undefined;
  if (Object.hasOwn(commonParametersShape, name)) return commonParametersShape[name as keyof typeof commonParametersShape];
  for (const type of ARTICLE_TYPES) {
    const shape: Record<string, z.ZodType> = TYPE_PARAMETER_SHAPES[type];
    if (Object.hasOwn(shape, name)) return shape[name];
  }
  return undefined;
}

// Zod 4 keeps the wrapped schema of optional/default/prefault in `def.innerType`.
interface ZodDefLike {
  type: string;
  innerType?: { _zod: { def: ZodDefLike } };
}

function kindOf(schema: z.ZodType): ParameterKind {
  let def = (schema as unknown as { _zod: { def: ZodDefLike } })._zod.def;
  while (def.innerType) def = def.innerType._zod.def;
  switch (def.type) {
    case 'boolean':
    case 'number':
    case 'string':
    case 'enum':
    case 'object':
      return def.type;
    case 'array':
      return 'list';
    default:
      return 'other';
  }
}

/**
 * The kind of a parameter by dotted name (`numRetailProducts`, `polishSettings.humanize`), or
 * undefined for a name the service does not know.
 */
export function parameterKind(name: string): ParameterKind | undefined {
  if (name === 'articleType') return 'enum';
  if (name.startsWith('polishSettings.')) {
    return (POLISH_SETTING_KEYS as readonly string[]).includes(name.slice('polishSettings.'.length)) ? 'boolean' : undefined;
  }
  const schema = parameterSchema(name);
  return schema ? kindOf(schema) : undefined;
}
