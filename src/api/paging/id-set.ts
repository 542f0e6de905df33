// The ids a run has written, every one of them: a server may repeat an id anywhere in the list, and
// only the ids themselves tell a repeat from a new item. A million UUIDs as strings in a Set take
// ~77 MB; packed as 16 bytes each in an open-addressing table (at most 80% full) they take 20 MB. Ids
// of any other shape (UUIDs in capitals are other ids) go to a plain Set, and so does the all-zero
// UUID, whose packed form marks an empty slot. Runs once or twice per exported item: a lookup packs
// into four numbers and probes the table, allocating nothing.

const INITIAL_SLOTS = 1024;
const MAX_LOAD = 0.8;

/** Past this many expected ids the table grows as it fills, rather than trust a server's count. */
const MAX_PRESIZED = 2_000_000;

export class IdSet {
  readonly #others = new Set<string>();
  #words: Uint32Array;
  #slots: number;
  #count = 0;
  // The last id packed: four 32-bit words.
  #k0 = 0;
  #k1 = 0;
  #k2 = 0;
  #k3 = 0;

  /**
   * `expected`: how many ids the run will likely hold (the list's total). Sized once, the table is
   * never copied: each growth would leave the old table's memory with the process (RSS), not the OS.
   */
  constructor(expected = 0) {
    this.#slots = Math.max(INITIAL_SLOTS, Math.ceil(Math.min(expected, MAX_PRESIZED) / MAX_LOAD) + 1);
    this.#words = new Uint32Array(4 * this.#slots);
  }

  has(id: string): boolean {
    if (!this.#pack(id)) return this.#others.has(id);
    return this.#find() >= 0;
  }

  /** Adds `id`; false when it was there already (one lookup for both questions). */
  add(id: string): boolean {
    if (!this.#pack(id)) {
      if (this.#others.has(id)) return false;
      this.#others.add(id);
      return true;
    }
    const found = this.#find();
    if (found >= 0) return false;
    const at = ~found * 4;
    const words = this.#words;
    words[at] = this.#k0;
    words[at + 1] = this.#k1;
    words[at + 2] = this.#k2;
    words[at + 3] = this.#k3;
    this.#count += 1;
    if (this.#count > this.#slots * MAX_LOAD) this.#grow();
    return true;
  }

  /** The slot holding the packed key, or ~slot of the empty slot where it would go (linear probing). */
  #find(): number {
    const words = this.#words;
    const k0 = this.#k0;
    const k1 = this.#k1;
    const k2 = this.#k2;
    const k3 = this.#k3;
    let slot = hash(k0, k1, k2, k3) % this.#slots;
    for (;;) {
      const at = slot * 4;
      const w0 = words[at] as number;
      const w1 = words[at + 1] as number;
      const w2 = words[at + 2] as number;
      const w3 = words[at + 3] as number;
      if (w0 === k0 && w1 === k1 && w2 === k2 && w3 === k3) return slot;
      if ((w0 | w1 | w2 | w3) === 0) return ~slot;
      slot = slot + 1 === this.#slots ? 0 : slot + 1;
    }
  }

  #grow(): void {
    const old = this.#words;
    this.#slots = Math.ceil(this.#slots * 1.5);
    this.#words = new Uint32Array(4 * this.#slots);
    for (let at = 0; at < old.length; at += 4) {
      this.#k0 = old[at] as number;
      this.#k1 = old[at + 1] as number;
      this.#k2 = old[at + 2] as number;
      this.#k3 = old[at + 3] as number;
      if ((this.#k0 | this.#k1 | this.#k2 | this.#k3) !== 0)
        this.#words.set(old.subarray(at, at + 4), ~this.#find() * 4);
    }
  }

  /** Packs a lowercase canonical UUID's 128 bits; false for any other text, and for zero. */
  #pack(id: string): boolean {
    if (id.length !== 36) return false;
    if (
      id.charCodeAt(8) !== 45 ||
      id.charCodeAt(13) !== 45 ||
      id.charCodeAt(18) !== 45 ||
      id.charCodeAt(23) !== 45
    )
      return false;
    const a = hex(id, 0, 8);
    const b = hex(id, 9, 13);
    const c = hex(id, 14, 18);
    const d = hex(id, 19, 23);
    const e = hex(id, 24, 28);
    const f = hex(id, 28, 36);
    if (a < 0 || b < 0 || c < 0 || d < 0 || e < 0 || f < 0) return false;
    this.#k0 = a;
    this.#k1 = b * 0x10000 + c;
    this.#k2 = d * 0x10000 + e;
    this.#k3 = f;
    return (a | b | c | d | e | f) !== 0;
  }
}

/** The lowercase hex digits of id[from, to) as a number (at most 8 digits), or -1 for any other character. */
function hex(id: string, from: number, to: number): number {
  let value = 0;
  for (let index = from; index < to; index++) {
    const code = id.charCodeAt(index);
    const digit = code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 102 ? code - 87 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** Mixes all four words: UUIDs that share a time prefix (v1, v7) still spread over the table. */
function hash(k0: number, k1: number, k2: number, k3: number): number {
  let h = Math.imul(k0 ^ Math.imul(k1, 0x9e3779b1), 0x85ebca6b);
  h = Math.imul(h ^ k2 ^ Math.imul(k3, 0xc2b2ae35), 0x27d4eb2f);
  return (h ^ (h >>> 15)) >>> 0;
}
