import { describe, expect, it } from 'vitest';
import { IdSet } from '../../src/api/paging/id-set.js';

const uuid = (n: number) => {
  const hex = n.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

describe('IdSet', () => {
  it('knows every UUID it was given, through many growths, and none it was not', () => {
    const ids = new IdSet();
    for (let n = 0; n < 20_000; n += 1) ids.add(uuid(n * 7));
    for (let n = 0; n < 20_000; n += 1) {
      expect(ids.has(uuid(n * 7))).toBe(true);
      expect(ids.has(uuid(n * 7 + 1))).toBe(false);
    }
  });

  it('says whether an id was new as it adds it, for UUIDs and other ids alike', () => {
    const ids = new IdSet();
    for (const id of [
      '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      'lead-1',
      '00000000-0000-0000-0000-000000000000',
    ]) {
      expect(ids.add(id)).toBe(true);
      expect(ids.add(id)).toBe(false);
    }
    expect(ids.add('0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4e')).toBe(true);
  });

  it('refuses to pack a UUID with a character that is not a lowercase hex digit in any group', () => {
    const ids = new IdSet();
    const uuid = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    // Past ASCII, 'š' (U+0161) and '°' (U+00B0) have the low bits of 'a' and '0': a table look-up that
    // wrapped them would read the UUID with that digit in their place.
    for (const odd of ['g', 'é', 'š', '°'])
      for (const at of [0, 9, 14, 19, 24, 35]) {
        const id = `${uuid.slice(0, at)}${odd}${uuid.slice(at + 1)}`;
        const wrapped = `${uuid.slice(0, at)}${String.fromCharCode(odd.charCodeAt(0) & 0x7f)}${uuid.slice(at + 1)}`;
        expect(ids.add(id)).toBe(true);
        expect(ids.has(id)).toBe(true);
        expect(ids.has(uuid)).toBe(false);
        if (wrapped !== id) expect(ids.has(wrapped)).toBe(false);
      }
  });

  it('packs the highest digits as they are: UUIDs that differ only in a top bit stay apart', () => {
    const ids = new IdSet();
    const top = 'ffffffff-ffff-ffff-ffff-ffffffffffff';
    expect(ids.add(top)).toBe(true);
    for (const at of [0, 9, 14, 19, 24, 28]) {
      const other = `${top.slice(0, at)}7${top.slice(at + 1)}`;
      expect(ids.has(other)).toBe(false);
      expect(ids.add(other)).toBe(true);
    }
    expect(ids.add(top)).toBe(false);
  });

  it('tells apart UUIDs that differ in one digit or only in case', () => {
    const ids = new IdSet();
    ids.add('0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d');
    expect(ids.has('0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4e')).toBe(false);
    expect(ids.has('0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D')).toBe(false);
    expect(ids.has('0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d')).toBe(true);
  });

  it('keeps ids of any other shape as they are', () => {
    const ids = new IdSet();
    for (const id of ['lead-1', '1790000000000000001', '0a1b2c3d4e5f4a6b8c7d9e0f1a2b3c4d0000', 'x-y'])
      ids.add(id);
    expect(ids.has('lead-1')).toBe(true);
    expect(ids.has('1790000000000000001')).toBe(true);
    expect(ids.has('1790000000000000000')).toBe(false);
    expect(ids.has('0a1b2c3d4e5f4a6b8c7d9e0f1a2b3c4d0000')).toBe(true);
    expect(ids.has('lead-2')).toBe(false);
  });
});

describe('IdSet and the all-zero UUID', () => {
  it('keeps it apart from an empty slot', () => {
    const ids = new IdSet();
    const zero = '00000000-0000-0000-0000-000000000000';
    expect(ids.has(zero)).toBe(false);
    ids.add(zero);
    expect(ids.has(zero)).toBe(true);
  });
});
