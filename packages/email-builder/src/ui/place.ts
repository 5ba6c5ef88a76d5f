/** A rectangle in viewport coordinates. */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** What a popover points at, in viewport coordinates: a caret, a selection, a button. */
export interface Anchor {
  left: number;
  /** Its right edge, where a right-to-left popover ends (the left edge when absent). */
  right?: number;
  top: number;
  bottom: number;
}

/** How {@link place} positions a popover. */
export interface PlaceOptions {
  /** The side tried first; the other is used when only it has room. Default `below`. */
  prefer?: 'above' | 'below';
  /**
   * The element the anchor lies in. When given and the anchor has scrolled out of what that
   * element shows (the viewport, or a scroll box around it), the popover is hidden instead.
   */
  target?: Element;
  /**
   * A sticky header over the content (the editor's toolbar): the popover keeps below it, and an
   * anchor scrolled under it counts as out of view.
   */
  header?: Element | null;
}

/** Space kept between a popover and the edge of the visible area. */
const MARGIN = 8;
/** Space between a popover and its anchor. */
const GAP = 6;
/** The least height a capped popover keeps, even when there is less room: a row and a half. */
const MIN_HEIGHT = 60;

/**
 * The part of the viewport in which `el` can be seen: the viewport (without its scroll bars) cut
 * down by every ancestor that clips its overflow, such as a scrolling box.
 */
export function visibleBox(el: Element): Box {
  const doc = el.ownerDocument;
  const root = doc.documentElement;
  const box: Box = { left: 0, top: 0, right: root.clientWidth, bottom: root.clientHeight };
  const win = doc.defaultView!;
  for (let node = el.parentElement; node && node !== doc.body && node !== root; node = node.parentElement) {
    const style = win.getComputedStyle(node);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const r = node.getBoundingClientRect();
    const left = r.left + node.clientLeft;
    const top = r.top + node.clientTop;
    box.left = Math.max(box.left, left);
    box.top = Math.max(box.top, top);
    box.right = Math.min(box.right, left + node.clientWidth);
    box.bottom = Math.min(box.bottom, top + node.clientHeight);
  }
  return box;
}

/**
 * Shows `el`, a popover absolutely positioned in `container`, next to `anchor`, inside the
 * visible area: on the preferred side when it fits there, else on the other side when it fits
 * there, else on the side with more room with its height capped so that it scrolls inside.
 * Horizontally it starts at the anchor (in a right-to-left editor, `dir="rtl"`, it ends at the
 * anchor's right edge: the chrome mirrors), kept inside the container when the container is wide
 * enough and always inside the visible area. Returns `false`, with the popover hidden, when
 * `options.target` is given and the anchor is out of its view.
 */
export function place(
  el: HTMLElement,
  container: HTMLElement,
  anchor: Anchor,
  options: PlaceOptions = {},
): boolean {
  const headerBottom = options.header?.getBoundingClientRect().bottom ?? -Infinity;
  if (options.target) {
    const seen = visibleBox(options.target);
    seen.top = Math.max(seen.top, headerBottom);
    const out =
      anchor.bottom < seen.top ||
      anchor.top > seen.bottom ||
      anchor.left < seen.left - 1 ||
      anchor.left > seen.right;
    if (out) {
      el.hidden = true;
      return false;
    }
  }
  const bounds = visibleBox(el);
  bounds.top = Math.max(bounds.top, headerBottom);
  const scrollTop = el.scrollTop;
  el.style.visibility = 'hidden';
  el.style.maxHeight = '';
  el.style.maxWidth = '';
  el.style.overflowY = '';
  el.hidden = false;
  const maxWidth = bounds.right - bounds.left - 2 * MARGIN;
  if (el.offsetWidth > maxWidth) el.style.maxWidth = `${Math.max(maxWidth, 0)}px`;
  const width = el.offsetWidth;
  let height = el.offsetHeight;

  const room = {
    below: bounds.bottom - MARGIN - (anchor.bottom + GAP),
    above: anchor.top - GAP - (bounds.top + MARGIN),
  };
  const prefer = options.prefer ?? 'below';
  const other = prefer === 'below' ? 'above' : 'below';
  let side: 'above' | 'below';
  if (height <= room[prefer]) side = prefer;
  else if (height <= room[other]) side = other;
  else {
    side = room.below >= room.above ? 'below' : 'above';
    height = Math.max(room[side], MIN_HEIGHT);
    el.style.maxHeight = `${height}px`;
    el.style.overflowY = 'auto';
  }
  const top = side === 'below' ? anchor.bottom + GAP : anchor.top - GAP - height;

  const box = container.getBoundingClientRect();
  let lo = bounds.left + MARGIN;
  let hi = bounds.right - MARGIN;
  // inside the editor too when it is wide enough, so menus do not spill over the host page
  const innerLo = Math.max(lo, box.left + 4);
  const innerHi = Math.min(hi, box.right - 4);
  if (innerHi - innerLo >= width) [lo, hi] = [innerLo, innerHi];
  const rtl = getComputedStyle(container).direction === 'rtl';
  const start = rtl ? (anchor.right ?? anchor.left) - width : anchor.left;
  const left = Math.max(lo, Math.min(start, hi - width));

  // `left`/`top` are measured from the container's padding box, which scrolls with it
  el.style.left = `${left - box.left - container.clientLeft + container.scrollLeft}px`;
  el.style.top = `${top - box.top - container.clientTop + container.scrollTop}px`;
  el.style.visibility = '';
  el.scrollTop = scrollTop;
  return true;
}

/**
 * Calls `update` whenever what a popover points at may have moved on screen: the window
 * resizing, or the page or any scroll box scrolling (scroll events do not bubble, so this
 * listens in the capture phase). Scrolling inside `el` itself is not such a move. Returns the
 * function that stops listening.
 */
export function followViewport(el: HTMLElement, update: () => void): () => void {
  const win = el.ownerDocument.defaultView!;
  const onScroll = (event: Event) => {
    if (!(event.target instanceof Node && el.contains(event.target))) update();
  };
  win.addEventListener('scroll', onScroll, { capture: true, passive: true });
  win.addEventListener('resize', update);
  return () => {
    win.removeEventListener('scroll', onScroll, { capture: true });
    win.removeEventListener('resize', update);
  };
}

/** Scrolls `list` (a scrolling popover) just enough to show `item`, and nothing around it. */
export function revealIn(list: HTMLElement, item: Element): void {
  const outer = list.getBoundingClientRect();
  const inner = item.getBoundingClientRect();
  const top = outer.top + list.clientTop;
  const bottom = top + list.clientHeight;
  if (inner.top < top) list.scrollTop -= top - inner.top;
  else if (inner.bottom > bottom) list.scrollTop += inner.bottom - bottom;
}
