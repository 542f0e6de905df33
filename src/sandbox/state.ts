// Everything one sandbox server knows: its resolved settings, its saved leads, history, counters
// and cache. Built once at start-up; handlers read and update it.

import { SearchCache } from './cache.js';
import { HistoryStore } from './history-store.js';
import { type AllowanceOverrides, allowanceFor, type PlanAllowance } from './keys.js';
import { LeadStore } from './stores.js';
import { UsageLedger } from './limits.js';
import { hashInts, SeededRandom, Stream, toSeed } from './random.js';
import type { SandboxOptions, SandboxPlan, SandboxVariant } from './types.js';

export interface SandboxSettings {
  port: number;
  host: string;
  plan: SandboxPlan;
  variant: SandboxVariant;
  leads: number;
  history: number;
  latencyMs: number;
  failRate: number;
  resetRate: number;
  seed: number;
  hostileData: boolean;
  now: () => number;
  overrides: AllowanceOverrides;
  recordRequests: boolean;
}

function count(value: number | undefined, fallback: number): number {
  return value === undefined || !Number.isFinite(value) ? fallback : Math.max(0, Math.floor(value));
}

function rate(value: number | undefined): number {
  return value === undefined || !Number.isFinite(value) ? 0 : Math.min(1, Math.max(0, value));
}

export function resolveSettings(options: SandboxOptions): SandboxSettings {
  return {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    plan: options.plan ?? 'agency',
    variant: options.variant ?? 'b',
    leads: count(options.leads, 300),
    history: count(options.history, 40),
    latencyMs: count(options.latencyMs, 0),
    failRate: rate(options.failRate),
    resetRate: rate(options.resetRate),
    seed: toSeed(options.seed ?? 1),
    hostileData: options.hostileData ?? false,
    now: options.now ?? Date.now,
    overrides: { dailyLimit: options.dailyLimit, liveSearchLimit: options.liveSearchLimit },
    recordRequests: options.recordRequests ?? true,
  };
}

export interface SandboxState {
  settings: SandboxSettings;
  leads: LeadStore;
  history: HistoryStore;
  usage: UsageLedger;
  cache: SearchCache;
  /** Draws for failRate and resetRate: seeded, so a run's chaos repeats. */
  chaos: SeededRandom;
  allowanceFor(plan: SandboxPlan): PlanAllowance;
}

export function createState(settings: SandboxSettings): SandboxState {
  // Timestamps hang off the start time (to the minute) so "--since 24h" finds recent leads.
  const anchorMs = Math.floor(settings.now() / 60_000) * 60_000;
  const { seed } = settings;
  const jitter = (serial: number) => hashInts(seed, Stream.lead, serial, 0x7157) / 4294967296;
  return {
    settings,
    leads: new LeadStore(settings.leads, anchorMs, jitter),
    history: new HistoryStore(seed, settings.history, anchorMs, settings.hostileData),
    usage: new UsageLedger(settings.now),
    cache: new SearchCache(settings.now),
    chaos: new SeededRandom(hashInts(seed, Stream.chaos)),
    allowanceFor: (plan) => allowanceFor(settings.variant, plan, settings.overrides),
  };
}
