/**
 * How a test's child `node` imports a module beside the test: the compiled JavaScript when the
 * test itself runs compiled (as `npm test` runs it, from its tree of compiled files), the
 * TypeScript source through tsx when the test runs from its source (`node --import tsx --test`).
 * tsx cost each child about 0.3 s of CPU to start and compile; one test starts thirty (issue 41).
 */
export interface ChildImport {
  /** The module's URL, for the child's `import`. */
  href: string;
  /** The `node` arguments that make it importable (tsx for a `.ts` file, else none). */
  nodeArgs: string[];
}

/** `relative` is the module's source (`./secret-key.ts`), resolved against `testUrl` (`import.meta.url`). */
export function childImport(testUrl: string, relative: string): ChildImport {
  if (testUrl.endsWith('.ts'))
    return { href: new URL(relative, testUrl).href, nodeArgs: ['--import', 'tsx'] };
  return { href: new URL(relative.replace(/\.ts$/, '.js'), testUrl).href, nodeArgs: [] };
}
