// The editor's blocks and the renderers' renderings: two registries, one list of blocks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BLOCK_RENDERINGS } from './block-renderings.js';
import { BLOCKS } from './blocks.js';

describe('the block registries', () => {
  it('list the same blocks in the same order, each editor block built from its rendering', () => {
    assert.deepEqual(
      BLOCKS.map((b) => b.name),
      BLOCK_RENDERINGS.map((r) => r.name),
    );
    BLOCKS.forEach((block, i) => {
      const rendering = BLOCK_RENDERINGS[i]!;
      for (const key of Object.keys(rendering) as (keyof typeof rendering)[])
        assert.equal(block[key], rendering[key], `${block.name}.${key}`);
    });
  });
});
