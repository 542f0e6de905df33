// The ids a run has written, every one of them: a server may repeat an id anywhere in the list, and
// only the ids themselves tell a repeat from a new item. A million UUIDs as strings in a Set take
// ~77 MB; packed as 16 bytes each in an open-addressing table (at most 80% full) they take 20 MB, and
// a byte a slot (its tag: empty, or 8 bits of the key's hash) lets nearly every probe read 1.25 MB
// instead: at a million ids the 20 MB table is out of the CPU's caches, and a probe that reads it
// waits for memory. A key is read only where its tag matches, so every answer is still exact. Ids of
// any other shape (UUIDs in capitals are other ids) go to a plain Set. Runs once or twice per
// exported item: a lookup packs into four numbers and probes the table, allocating nothing.

const INITIAL_SLOTS = 1024;
const MAX_LOAD = 0.8;

/** Past this many expected ids the table grows as it fills, rather than trust a server's count. */
const MAX_PRESIZED = 2_000_000;

export class IdSet {
  readonly #others = new Set<string>();
  /** Per slot: 0 while empty, else the tag of the key it holds (1-255). */
  #tags: Uint8Array;
  #words: Uint32Array;
  #slots: number;
  #count = 0;
  // The last id packed: four 32-bit words.
  #k0 = 0;
  #k1 = 0;
  #k2 = 0;
  #k3 = 0;
  #tag = 0;

  /**
   * `expected`: how many ids the run will likely hold (the list's total). Sized once, the table is
   * never copied: each growth would leave the old table's memory with the process (RSS), not the OS.
   */
  constructor(expected = 0) {
    this.#slots = Math.max(INITIAL_SLOTS, Math.ceil(Math.min(expected, MAX_PRESIZED) / MAX_LOAD) + 1);
    this.#tags = new Uint8Array(this.#slots);
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
    this.#put(~found);
    this.#count += 1;
    if (this.#count > this.#slots * MAX_LOAD) this.#grow();
    return true;
  }

  /** The slot holding the packed key, or ~slot of the empty slot where it would go (linear probing). */
  #find(): number {
    const tags = this.#tags;
    const words = this.#words;
    const h = hash(this.#k0, this.#k1, this.#k2, this.#k3);
    const tag = h & 0xff || 1;
    this.#tag = tag;
    // Multiply-shift scales the hash to the table: a division would cost more than the rest of a probe.
    let slot = Math.floor((h * this.#slots) / 0x1_0000_0000);
    for (;;) {
      const held = tags[slot];
      if (held === 0) return ~slot;
      const at = slot * 4;
      if (
        held === tag &&
        words[at] === this.#k0 &&
        words[at + 1] === this.#k1 &&
        words[at + 2] === this.#k2 &&
        words[at + 3] === this.#k3
      )
        return slot;
      slot = slot + 1 === this.#slots ? 0 : slot + 1;
    }
  }

  /** Writes the last key found missing into the empty `slot`. */
  #put(slot: number): void {
    const at = slot * 4;
    this.#tags[slot] = this.#tag;
    this.#words[at] = this.#k0;
    this.#words[at + 1] = this.#k1;
    this.#words[at + 2] = this.#k2;
    this.#words[at + 3] = this.#k3;
  }

  #grow(): void {
    const tags = this.#tags;
    const words = this.#words;
    this.#slots = Math.ceil(this.#slots * 1.5);
    this.#tags = new Uint8Array(this.#slots);
    this.#words = new Uint32Array(4 * this.#slots);
    for (let slot = 0; slot < tags.length; slot++) {
      if (tags[slot] === 0) continue;
      this.#k0 = words[slot * 4] as number;
      this.#k1 = words[slot * 4 + 1] as number;
      this.#k2 = words[slot * 4 + 2] as number;
      this.#k3 = words[slot * 4 + 3] as number;
      this.#put(~this.#find());
    }
  }

  /** Packs a lowercase canonical UUID's 128 bits; false for any other text. */
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
    return true;
  }
}

/** Each lowercase hex digit's value by character code, -1 for every other code below 128. */
const HEX_DIGITS = new Int8Array(128).fill(-1);
for (const [value, digit] of [...'0123456789abcdef'].entries()) HEX_DIGITS[digit.charCodeAt(0)] = value;

/** The lowercase hex digits of id[from, to) as a number (at most 8 digits), or -1 for any other character. */
function hex(id: string, from: number, to: number): number {
  let value = 0;
  for (let index = from; index < to; index++) {
    const code = id.charCodeAt(index);
    const digit = code < 128 ? (HEX_DIGITS[code] as number) : -1;
    if (digit < 0) return -1;
    value = (value << 4) | digit; // 32-bit integer arithmetic; >>> 0 below reads it unsigned
  }
  return value >>> 0;
}

/** Mixes all four words: UUIDs that share a time prefix (v1, v7) still spread over the table. */
function hash(k0: number, k1: number, k2: number, k3: number): number {
  let h = Math.imul(k0 ^ Math.imul(k1, 0x9e3779b1), 0x85ebca6b);
  h = Math.imul(h ^ k2 ^ Math.imul(k3, 0xc2b2ae35), 0x27d4eb2f);
  return (h ^ (h >>> 15)) >>> 0;
}
