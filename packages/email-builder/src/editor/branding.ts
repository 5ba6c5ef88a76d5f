import { type Brand, type BrandingProblem, checkBranding } from '../branding/check.js';
import { ServiceEditorError } from '../errors.js';

/**
 * An editor's branding (the `branding` option, then `setBranding`), checked: every leaf present,
 * `null` where not given or not usable. A bad value is ignored, kept as a problem and logged
 * with `console.warn` (`SEB_ERR_BRANDING`), never rendered.
 */
export class EditorBranding {
  private brand: Brand;
  private problems: BrandingProblem[] = [];

  constructor(branding: unknown) {
    this.brand = this.check(branding);
  }

  /** The branding in use. */
  get current(): Brand {
    return this.brand;
  }

  /** The values of the last branding given that were ignored, and why (copies). */
  get ignored(): BrandingProblem[] {
    return this.problems.map((p) => ({ ...p }));
  }

  /** Takes a new branding; returns the one it replaces. */
  replace(branding: unknown): Brand {
    const previous = this.brand;
    this.brand = this.check(branding);
    return previous;
  }

  private check(branding: unknown): Brand {
    const { brand, problems } = checkBranding(branding);
    this.problems = problems;
    for (const p of problems) console.warn(new ServiceEditorError('SEB_ERR_BRANDING', { ...p }).message);
    return brand;
  }
}
