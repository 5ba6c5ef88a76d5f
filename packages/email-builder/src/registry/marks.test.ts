// The editor's marks and the renderers' renderings: two registries, one list of marks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MARK_RENDERINGS } from './mark-renderings.js';
import { MARKS } from './marks.js';

describe('the mark registries', () => {
  it('list the same marks in the same order, each editor mark built from its rendering', () => {
    assert.deepEqual(
      MARKS.map((m) => m.name),
      MARK_RENDERINGS.map((r) => r.name),
    );
    MARKS.forEach((mark, i) => {
      const rendering = MARK_RENDERINGS[i]!;
      for (const key of Object.keys(rendering) as (keyof typeof rendering)[])
        assert.equal(mark[key], rendering[key], `${mark.name}.${key}`);
    });
  });
});
