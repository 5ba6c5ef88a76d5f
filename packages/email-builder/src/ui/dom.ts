/** Creates an element with attributes (`on*` keys as listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | EventListener | null | undefined> = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'html') el.innerHTML = String(value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) if (child) el.append(child);
  return el;
}

/** An icon-only button with an accessible name and tooltip. */
export function iconButton(
  icon: string,
  label: string,
  onClick: (e: MouseEvent) => void,
  extra: Record<string, string> = {},
): HTMLButtonElement {
  return h('button', {
    type: 'button',
    class: 'sv-icon-btn',
    'aria-label': label,
    title: label,
    html: icon,
    onclick: onClick as EventListener,
    ...extra,
  });
}

let counter = 0;
/** A unique id for ARIA references. */
export function uid(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}
