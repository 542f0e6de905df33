import { describe, expect, it } from 'vitest';
import { guardFormula, looksLikeFormula } from '../../src/output/csv.js';

describe('csv formula guard', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ["+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"],
    ["-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r=1"],
    ['=', "'="],
    ['-2+3', "'-2+3"],
    ['-1+2', "'-1+2"],
    ['+1-555 =cmd', "'+1-555 =cmd"],
    ['+1 512-555-0101 ext 5', "'+1 512-555-0101 ext 5"],
    ['-SUM(1)', "'-SUM(1)"],
    ['+A1', "'+A1"],
    ['-', "'-"],
    ['+', "'+"],
    ['- ', "'- "],
  ])('guards %j', (cell, guarded) => {
    expect(looksLikeFormula(cell)).toBe(true);
    expect(guardFormula(cell)).toBe(guarded);
  });

  it.each([
    '+1 512-555-0101',
    '+44 20 7946 0958',
    '+1 (512) 555.0101',
    '-12.5',
    '-3',
    '+7',
    '-.5',
    '-1,234.5',
    '-1e5',
    '+6.02E23',
    '-1-2',
    '',
    'plain text',
    '1+1',
    ' =1+1',
    'a=b',
    'café',
    "'=already quoted",
  ])('leaves %j unchanged', (cell) => {
    expect(looksLikeFormula(cell)).toBe(false);
    expect(guardFormula(cell)).toBe(cell);
  });
});
