import { mix } from '../primitives/contrast.js';

/**
 * The colour the starter templates use for "the brand", and its pale tint. When branding is
 * applied to a template, buttons, dividers, badges, accents and tinted sections in these colours
 * take the brand colour instead (each block says which of its colours do: `colors`).
 */
export const TEMPLATE_ACCENT = '#4f46e5';
export const TEMPLATE_TINT = '#eef2ff';

/** The pale tint of a colour, for section backgrounds and badges. */
export const tint = (color: string): string => mix(color, '#ffffff', 0.88);
