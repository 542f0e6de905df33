// The ids a run has written, every one of them: a server may repeat an id anywhere in the list, and
// only the ids themselves tell a repeat from a new item. A million UUIDs as strings in a Set take
// ~77 MB; packed as 16 bytes each in an open-addressing table (at most 80% full) they take 20 MB. Ids of any other shape (UUIDs in capitals are other ids) go to a plain Set, and
// so does the all-zero UUID, whose packed form marks an empty slot.

const INITIAL_SLOTS = 1024;
const MAX_LOAD = 0.8;
const DASHES = [8, 13, 18, 23];

/** Past this many expected ids the table grows as it fills, rather than trust a server's count. */
const MAX_PRESIZED = 2_000_000;

export class IdSet {
  readonly #others = new Set<string>();
  #words: Uint32Array;
  #slots: number;
  #count = 0;
  readonly #key = new Uint32Array(4);

  /**
   * `expected`: how many ids the run will likely hold (the list's total). Sized once, the table is
   * never copied: each growth would leave the old table's memory with the process (RSS), not the OS.
   */
  constructor(expected = 0) {
    this.#slots = Math.max(INITIAL_SLOTS, Math.ceil(Math.min(expected, MAX_PRESIZED) / MAX_LOAD) + 1);
    this.#words = new Uint32Array(4 * this.#slots);
  }

  has(id: string): boolean {
    if (!packUuid(id, this.#key)) return this.#others.has(id);
    return !this.#isEmpty(this.#find(this.#key));
  }

  add(id: string): void {
    if (!packUuid(id, this.#key)) {
      this.#others.add(id);
      return;
    }
    const slot = this.#find(this.#key);
    if (!this.#isEmpty(slot)) return;
    this.#words.set(this.#key, slot * 4);
    this.#count += 1;
    if (this.#count > this.#slots * MAX_LOAD) this.#grow();
  }

  /** The slot holding `key`, or the empty slot where it would go (linear probing). */
  #find(key: Uint32Array): number {
    const words = this.#words;
    let slot = hash(key) % this.#slots;
    for (;;) {
      if (this.#isEmpty(slot)) return slot;
      const at = slot * 4;
      if (
        words[at] === key[0] &&
        words[at + 1] === key[1] &&
        words[at + 2] === key[2] &&
        words[at + 3] === key[3]
      )
        return slot;
      slot = slot + 1 === this.#slots ? 0 : slot + 1;
    }
  }

  #isEmpty(slot: number): boolean {
    return isZero(this.#words.subarray(slot * 4, slot * 4 + 4));
  }

  #grow(): void {
    const [words, slots] = [this.#words, this.#slots];
    this.#slots = Math.ceil(slots * 1.5);
    this.#words = new Uint32Array(4 * this.#slots);
    const key = new Uint32Array(4);
    for (let slot = 0; slot < slots; slot++) {
      key.set(words.subarray(slot * 4, slot * 4 + 4));
      if (!isZero(key)) this.#words.set(key, this.#find(key) * 4);
    }
  }
}

/** Writes a lowercase canonical UUID's 128 bits into `into`; false for any other text, and for zero. */
function packUuid(id: string, into: Uint32Array): boolean {
  if (id.length !== 36) return false;
  for (const dash of DASHES) if (id.charCodeAt(dash) !== 45) return false;
  let word = 0;
  let nibbles = 0;
  for (let index = 0; index < 36; index++) {
    const code = id.charCodeAt(index);
    if (code === 45 && DASHES.includes(index)) continue;
    const digit = code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 102 ? code - 87 : -1;
    if (digit < 0) return false;
    word = (word << 4) | digit;
    nibbles += 1;
    if (nibbles % 8 === 0) into[nibbles / 8 - 1] = word >>> 0;
  }
  return !isZero(into);
}

function isZero(key: Uint32Array): boolean {
  return ((key[0] as number) | (key[1] as number) | (key[2] as number) | (key[3] as number)) === 0;
}

/** Mixes all four words: UUIDs that share a time prefix (v1, v7) still spread over the table. */
function hash(key: Uint32Array): number {
  let h = Math.imul((key[0] as number) ^ Math.imul(key[1] as number, 0x9e3779b1), 0x85ebca6b);
  h = Math.imul(h ^ (key[2] as number) ^ Math.imul(key[3] as number, 0xc2b2ae35), 0x27d4eb2f);
  return (h ^ (h >>> 15)) >>> 0;
}
