// Errors the emulator throws at its user (bad options, unreadable files), never at HTTP clients.
import { ArticleLoaderError } from '../errors.js';

/** A configuration or start-up problem of the emulator; `code` says which. */
export class EmulatorError extends ArticleLoaderError {}
