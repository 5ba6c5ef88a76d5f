import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DOC_ATTRS } from '../model/doc.js';
import { contrast, luminance, MIN_CONTRAST } from './contrast.js';
import { darkSurface, darkTextColor, highlightTextColor } from './dark-color.js';

// The document's default dark surfaces: the email's background, and a tinted panel's.
const CANVAS = DOC_ATTRS.darkCanvas.default as string; // #27272a
const PANEL = DOC_ATTRS.darkBorder.default as string; // #3f3f46

/** Hue in degrees, and whether the colour is a neutral grey (no hue). */
function hue(hex: string): { grey: boolean; degrees: number } {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const [max, min] = [Math.max(r!, g!, b!), Math.min(r!, g!, b!)];
  if (max === min) return { grey: true, degrees: 0 };
  const d = max - min;
  const h = max === r ? ((g! - b!) / d + 6) % 6 : max === g ? (b! - r!) / d + 2 : (r! - g!) / d + 4;
  return { grey: false, degrees: h * 60 };
}

describe('darkTextColor', () => {
  // Known pairs: the starter templates' muted grey and accent, ink, and a saturated red.
  const PAIRS: [string, string, string][] = [
    ['#52525b', PANEL, '#aaaab2'], // the welcome template's step text: 1.35:1 before
    ['#52525b', CANVAS, '#8d8d98'],
    ['#18181b', PANEL, '#aaaab3'],
    ['#4f46e5', CANVAS, '#8781ed'], // accent text
    ['#2563eb', CANVAS, '#5c8af0'], // the default link colour
    ['#ff0000', CANVAS, '#ff4b4b'],
  ];
  for (const [color, background, expected] of PAIRS) {
    it(`lightens ${color} on ${background} to ${expected}: 4.5:1, same hue, no lighter than needed`, () => {
      const dark = darkTextColor(color, background);
      assert.equal(dark, expected);
      const ratio = contrast(dark, background);
      assert.ok(ratio >= MIN_CONTRAST, `${ratio} reaches 4.5`);
      // "just enough": the next shade down would fail, so the result sits right above 4.5
      assert.ok(ratio < 4.6, `${ratio} is not lighter than needed`);
      assert.ok(Math.abs(hue(dark).degrees - hue(color).degrees) < 3, 'hue kept');
      assert.ok(contrast(color, background) < MIN_CONTRAST, 'the pair failed to begin with');
    });
  }

  it('leaves colours that already reach 4.5:1 as they are', () => {
    for (const [color, background] of [
      ['#e4e4e7', CANVAS],
      ['#a1a1aa', CANVAS],
      ['#ffffff', PANEL],
      ['#fff', CANVAS],
      ['#FACC15', PANEL],
    ] as const) {
      assert.ok(contrast(color, background) >= MIN_CONTRAST);
      assert.equal(darkTextColor(color, background), color);
    }
  });

  it('turns pure black into a neutral grey, and leaves pure white alone', () => {
    for (const background of [CANVAS, PANEL]) {
      const dark = darkTextColor('#000000', background);
      assert.ok(hue(dark).grey, `${dark} is a grey`);
      assert.ok(contrast(dark, background) >= MIN_CONTRAST);
      assert.equal(darkTextColor('#ffffff', background), '#ffffff');
    }
    assert.equal(darkTextColor('#000000', CANVAS), '#8e8e8e');
  });

  it('reads #rgb like #rrggbb', () => {
    assert.equal(darkTextColor('#555', CANVAS), darkTextColor('#555555', CANVAS));
    assert.equal(darkTextColor('#00f', PANEL), darkTextColor('#0000ff', PANEL));
    assert.equal(darkTextColor('#555', '#333'), darkTextColor('#555', '#333333'));
  });

  it('stops at white when no lighter shade would reach 4.5:1 on a light surface', () => {
    assert.ok(contrast('#ffffff', '#aaaaaa') < MIN_CONTRAST);
    assert.equal(darkTextColor('#777777', '#aaaaaa'), '#ffffff');
  });

  it('throws a RangeError for anything but hex colours', () => {
    assert.throws(() => darkTextColor('red', CANVAS), RangeError);
    assert.throws(() => darkTextColor('rgb(0, 0, 0)', CANVAS), RangeError);
    assert.throws(() => darkTextColor('#000000', 'var(--bg)'), RangeError);
  });
});

describe('darkSurface', () => {
  it('is the darkened panel colour on a panel and the dark email background elsewhere', () => {
    const settings = { darkCanvas: '#101010', darkBorder: '#303030' };
    assert.equal(darkSurface(settings, true), '#303030');
    assert.equal(darkSurface(settings, false), '#101010');
  });
});

describe('highlightTextColor', () => {
  it('keeps the light-mode colour when it reads on the highlight (every palette highlight with body text)', () => {
    for (const highlight of ['#fef08a', '#bbf7d0', '#bfdbfe', '#fbcfe8', '#fed7aa', '#e4e4e7'])
      assert.equal(highlightTextColor('#27272a', highlight), '#27272a', highlight);
  });

  it('darkens light text on a light highlight and lightens dark text on a dark one, to 4.5:1, hue kept', () => {
    for (const [ink, highlight, lighter] of [
      ['#e4e4e7', '#fef08a', false], // the dark theme's text on yellow: 1.1:1
      ['#ca8a04', '#fef08a', false], // the palette's amber on yellow
      ['#27272a', '#1e3a8a', true], // body text on navy
      ['#27272a', '#e11d48', true], // on rose, where white has more room than black
    ] as const) {
      const out = highlightTextColor(ink, highlight);
      assert.ok(contrast(out, highlight) >= MIN_CONTRAST, `${ink} on ${highlight}: ${out}`);
      assert.ok(contrast(out, highlight) < MIN_CONTRAST + 0.2, `no further than needed: ${out}`);
      assert.equal(luminance(out) > luminance(ink), lighter, `${ink} on ${highlight}: ${out}`);
    }
    // a coloured text stays its colour: the amber darkens to a darker amber
    const amber = highlightTextColor('#ca8a04', '#fef08a');
    assert.ok(Math.abs(hue(amber).degrees - hue('#ca8a04').degrees) < 2, amber);
  });

  it('throws a RangeError for anything but hex colours', () => {
    assert.throws(() => highlightTextColor('yellow', '#fef08a'), RangeError);
  });
});
