/**
 * The room a block's settings need beside the email (see `dock.ts`), and the email moved left
 * to make it where centring does not leave it.
 */

/** Space between the email and the settings beside it. */
export const GAP = 12;
/** Space kept between the settings and the edge of the visible area. */
export const MARGIN = 8;
/** The narrowest the settings may be beside the email; with less room they become a sheet. */
export const MIN_SIDE_WIDTH = 224;

/**
 * Moves the email card `canvas` left of centre in the editor `frame` when that, and only that,
 * gives a block's settings their room right of it: just far enough, never past the left
 * gutter that holds the blocks' handles. An editor wide enough keeps the email centred; one too
 * narrow for the settings beside even a moved email keeps it centred too (they open as a sheet).
 * With the default 600 px email that makes room from an editor of about 920 px instead of 1,150
 * (issue 40: in the 870 px editor of a 1280 px playground they covered the email as a sheet).
 * Call it whenever the editor or the email changes width.
 */
export function makeRoomBeside(canvas: HTMLElement, frame: HTMLElement): void {
  canvas.style.marginLeft = '';
  const room = frame.getBoundingClientRect().right - canvas.getBoundingClientRect().right;
  const missing = MIN_SIDE_WIDTH + GAP + MARGIN - room;
  if (missing <= 0) return;
  const centring = parseFloat(getComputedStyle(canvas).marginLeft);
  if (missing <= centring) canvas.style.marginLeft = `${centring - missing}px`;
}

/**
 * Keeps {@link makeRoomBeside} applied as the editor's `stage` or the email `canvas` changes
 * size; returns a function that stops it (nothing to stop without `ResizeObserver`).
 */
export function keepRoomBeside(canvas: HTMLElement, frame: HTMLElement, stage: HTMLElement): () => void {
  if (typeof ResizeObserver !== 'function') return () => {};
  const room = new ResizeObserver(() => makeRoomBeside(canvas, frame));
  room.observe(stage);
  room.observe(canvas);
  return () => room.disconnect();
}
