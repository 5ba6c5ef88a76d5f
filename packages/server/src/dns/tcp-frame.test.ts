import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FrameReader, framed } from './tcp-frame.js';

test('messages come back whole however the stream is cut: byte by byte, several in one chunk, an empty one', () => {
  const messages = [Buffer.from('first'), Buffer.alloc(0), Buffer.alloc(300, 7), Buffer.from('last')];
  const stream = Buffer.concat(messages.map(framed));
  assert.deepEqual(framed(Buffer.from('ab')), Buffer.from([0, 2, 0x61, 0x62]));

  const whole = new FrameReader();
  assert.deepEqual(whole.push(stream), messages);
  assert.equal(whole.pending, 0);

  const trickled = new FrameReader();
  const got: Buffer[] = [];
  const pendings: number[] = [];
  for (const byte of stream) {
    got.push(...trickled.push(Buffer.from([byte])));
    pendings.push(trickled.pending);
  }
  assert.deepEqual(got, messages);
  assert.equal(trickled.pending, 0);
  // the length's first byte alone is pending, then the length and part of the message
  assert.equal(pendings[0], 1);
  assert.equal(pendings[3], 4);
});
