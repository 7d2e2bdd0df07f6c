export const DEFAULT_DATA_DIR = '.data/pglite';

/** The app's own embedded data directory (the running app must be stopped: it owns the directory). */
export const appDataDir = () => process.env.PGLITE_DIR || DEFAULT_DATA_DIR;
