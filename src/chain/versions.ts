/**
 * The chain file format's version and the migrations that bring an older file up to it: the
 * one place both live, so a format change is a bump here plus one table entry, and a test can
 * stand up a newer format (vi.mock of this module) to prove every load path migrates.
 */
export const CHAIN_VERSION = 1;

/** Upgrades a raw chain of version n (the key) to n+1; the caller sets the new version. */
export type ChainMigration = (chain: Record<string, unknown>) => Record<string, unknown>;

/** Version 1 is the first format, so the table is empty until the format changes. */
export const CHAIN_MIGRATIONS: Readonly<Record<number, ChainMigration>> = {};
