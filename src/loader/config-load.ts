// Which collections the content config still has: the loaders one evaluation of it made, and the collections they loaded.
//
// Astro gives a loader no signal when its collection leaves the content config: the config is
// evaluated again (making a new loader per collection) and load() is called on each of the new
// loaders, and that is all. So a session whose collection was removed would keep its dev watch, its
// background wait and its queue forever. The evaluation is recognised from what it does: every
// articleLoader() call made before any load() of it begins belongs to it (a top-level await between
// the calls changes nothing), and once each of its loaders has loaded and settled, the sessions of
// the same project that none of them loaded are ended.
//
// When that is not certain, nothing is ended: a loader made but given to no collection, or an
// evaluation Astro never loads (a config it rejected), leaves the evaluation incomplete until the
// config is evaluated again; a config with no articleLoader() left makes no evaluation at all.
import { forgetQueue, loaderRuntime, type ConfigLoad } from './runtime.js';

/** A loader's place in an evaluation of the content config. */
export interface ConfigMember {
  readonly load: ConfigLoad;
  readonly loader: number;
}

/** Called by articleLoader(): joins the evaluation being made, or starts the next one once a load() of the last has begun. */
export function joinConfigLoad(): ConfigMember {
  const runtime = loaderRuntime();
  let current = runtime.configLoad;
  if (current === undefined || current.started.size > 0) {
    current = { loaders: 0, started: new Set(), running: 0, keys: new Set(), roots: new Set() };
    runtime.configLoad = current;
  }
  current.loaders += 1;
  return { load: current, loader: current.loaders };
}

/**
 * Called when load() starts for the collection `key` (`root#collection`); returns the function to
 * call when it settles. The last load of the newest complete evaluation ends the sessions of that
 * project it did not load.
 */
export function configLoadStarted(member: ConfigMember, root: string, key: string): () => Promise<void> {
  const { load } = member;
  load.started.add(member.loader);
  load.running += 1;
  load.keys.add(key);
  load.roots.add(root);
  return async () => {
    load.running -= 1;
    const runtime = loaderRuntime();
    if (load.running > 0 || load.started.size < load.loaders || runtime.configLoad !== load) return;
    const stale = [...runtime.sessions].filter(([sessionKey, session]) => load.roots.has(session.root) && !load.keys.has(sessionKey));
    for (const [sessionKey] of stale) runtime.sessions.delete(sessionKey);
    await Promise.allSettled(
      stale.map(async ([, session]) => {
        await session.dispose();
        forgetQueue(session.collection);
      }),
    );
  };
}
