/** Types of `tracked-links.js` (plain JavaScript: it runs on the render threads). */
export declare const RECIPIENT_MARK: string;
export declare function addTracking(
  html: string,
  options: { base: string; opens: boolean; clicks: boolean; keep: string[] },
): string;
