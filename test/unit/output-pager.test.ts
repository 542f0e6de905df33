import { describe, expect, it } from 'vitest';
import { pagerCommand } from '../../src/output/pager.js';

describe('pagerCommand', () => {
  it('LEADCTL_PAGER, else PAGER, else less; an empty variable counts as unset', () => {
    expect(pagerCommand({}, undefined)).toBe('less');
    expect(pagerCommand({ PAGER: 'more' }, undefined)).toBe('more');
    expect(pagerCommand({ PAGER: 'more', LEADCTL_PAGER: 'less -S' }, undefined)).toBe('less -S');
    expect(pagerCommand({ PAGER: 'more', LEADCTL_PAGER: '' }, undefined)).toBe('more');
    expect(pagerCommand({ PAGER: ' ' }, undefined)).toBe('less');
  });

  it('none with --no-pager or cat', () => {
    expect(pagerCommand({ PAGER: 'more' }, false)).toBeUndefined();
    expect(pagerCommand({ LEADCTL_PAGER: 'cat' }, undefined)).toBeUndefined();
    expect(pagerCommand({ PAGER: 'cat' }, undefined)).toBeUndefined();
  });
});
