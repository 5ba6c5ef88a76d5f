import { visibleBox } from './place.js';
import { GAP, MARGIN, MIN_SIDE_WIDTH } from './side-room.js';

/**
 * Places a block's settings `el` (absolutely positioned in `container`) where they cover neither
 * the block nor anything outside the viewport:
 * - **beside the email** when the editor has room right of it (the left holds the blocks' handles;
 *   `makeRoomBeside` in side-room.ts moves the email left where that makes the room):
 *   level with the block, moved up as far as needed to end inside the viewport, below the
 *   sticky `header`, and no taller than the viewport (scrolling inside);
 * - otherwise (a phone, a narrow editor) as a **sheet along the bottom** of the viewport, at most
 *   half its height, across the editor's width; with `reveal` (as they open) the page scrolls so
 *   the block shows above it (in whatever scrolls the email); later calls (the page
 *   scrolling) leave the scrolling to the reader.
 * Returns where it went.
 */
export function dock(
  el: HTMLElement,
  container: HTMLElement,
  block: DOMRect,
  card: Element,
  header: Element | null,
  reveal = false,
): 'side' | 'sheet' {
  const canvas = card.getBoundingClientRect();
  const bounds = visibleBox(el);
  bounds.top = Math.max(bounds.top, header?.getBoundingClientRect().bottom ?? -Infinity);
  // beside the email, but inside the editor: never over the host's page around it
  const frame = container.getBoundingClientRect();
  bounds.left = Math.max(bounds.left, frame.left);
  bounds.right = Math.min(bounds.right, frame.right);
  const scrollTop = el.scrollTop;
  el.classList.remove('sv-sheet');
  for (const key of ['left', 'top', 'right', 'bottom', 'width', 'maxHeight'] as const) el.style[key] = '';
  el.style.visibility = 'hidden';
  el.hidden = false;

  const roomRight = bounds.right - MARGIN - (canvas.right + GAP);
  const side = roomRight >= MIN_SIDE_WIDTH;
  const width = Math.min(el.offsetWidth, roomRight);

  if (side) {
    undock(container);
    el.style.width = `${width}px`;
    const maxHeight = bounds.bottom - bounds.top - 2 * MARGIN;
    el.style.maxHeight = `${maxHeight}px`;
    const height = Math.min(el.offsetHeight, maxHeight);
    const top = Math.max(bounds.top + MARGIN, Math.min(block.top, bounds.bottom - MARGIN - height));
    const left = canvas.right + GAP;
    // `left`/`top` are measured from the container's padding box, which scrolls with it
    const box = container.getBoundingClientRect();
    el.style.left = `${left - box.left - container.clientLeft + container.scrollLeft}px`;
    el.style.top = `${top - box.top - container.clientTop + container.scrollTop}px`;
  } else {
    el.classList.add('sv-sheet');
    const box = container.getBoundingClientRect();
    const viewportWidth = el.ownerDocument.documentElement.clientWidth;
    el.style.left = `${Math.max(0, box.left)}px`;
    el.style.right = `${Math.max(0, viewportWidth - box.right)}px`;
    // room below the email as tall as the sheet, so even the last block can scroll above it
    container.style.setProperty('--sv-sheet-space', `${el.offsetHeight}px`);
    container.classList.add('sv-sheet-open');
    // the block shows above the sheet: scroll by what the sheet covers, never past the block's top
    const sheetTop = el.getBoundingClientRect().top;
    const covered = block.bottom + MARGIN - sheetTop;
    const spare = block.top - (bounds.top + MARGIN);
    // after the click that opened them has settled (its focus may scroll the page itself)
    if (reveal && covered > 0 && spare > 0)
      requestAnimationFrame(() => scrollerOf(card).scrollBy(0, Math.min(covered, spare)));
  }
  el.style.visibility = '';
  el.scrollTop = scrollTop;
  return side ? 'side' : 'sheet';
}

/** Takes back the room a sheet made below the email. */
export function undock(container: HTMLElement): void {
  container.classList.remove('sv-sheet-open');
  container.style.removeProperty('--sv-sheet-space');
}

/** What scrolls the email: the nearest ancestor that scrolls vertically (a host's fixed-height editor), else the window. */
function scrollerOf(el: Element): Element | Window {
  const win = el.ownerDocument.defaultView!;
  for (let node = el.parentElement; node && node !== el.ownerDocument.body; node = node.parentElement) {
    const { overflowY } = win.getComputedStyle(node);
    if ((overflowY === 'auto' || overflowY === 'scroll') && node.scrollHeight > node.clientHeight)
      return node;
  }
  return win;
}
