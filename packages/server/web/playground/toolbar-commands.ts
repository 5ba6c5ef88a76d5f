import { el } from '../lib/dom.js';
import { MenuButton } from './menu-button.js';

/** One of the playground's own commands (what the editor's toolbar does not offer). */
export interface PlaygroundCommand {
  label: string;
  /** The tooltip: the editor API the command shows off. */
  title: string;
  /** Shown as the main action while there is room. */
  primary?: boolean;
  /** Runs the command; `control` is the button or menu item it came from (for feedback on it). */
  run(control: HTMLButtonElement): void;
}

/**
 * The playground's commands for the editor's toolbar (its `.sv-toolbar-host`), so the page has
 * one toolbar: buttons while the toolbar has room, the same commands in a "More" menu where it
 * is narrow (a container query on the toolbar shows one or the other, so each command is
 * offered once). Undo, redo, templates and preview are the editor's own buttons.
 */
export function toolbarCommands(commands: readonly PlaygroundCommand[]): HTMLElement {
  const buttons = commands.map((command) => {
    const button = el(
      'button',
      {
        type: 'button',
        className: command.primary ? 'sv-btn sv-btn-primary' : 'sv-btn',
        title: command.title,
      },
      command.label,
    );
    button.addEventListener('click', () => command.run(button));
    return button;
  });
  const more = new MenuButton(
    'More',
    commands.map((command) => ({ label: command.label, run: command.run })),
  );
  return el(
    'div',
    { className: 'pg-commands' },
    el('div', { className: 'pg-inline' }, ...buttons),
    el('div', { className: 'pg-overflow' }, more.el),
  );
}
