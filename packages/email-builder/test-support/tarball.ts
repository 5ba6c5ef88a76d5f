/**
 * A package as users get it: `npm pack` of a workspace package (built already), installed in a
 * scratch project outside the workspace with the workspace's own versions of any extra
 * packages, from npm's cache (no registry needed).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface ScratchInstall {
  /** The packed `.tgz`. */
  tarball: string;
  /** The scratch project, with the tarball installed in its node_modules. */
  project: string;
  /** Removes it all. */
  remove(): void;
}

/** Runs a command to its end; its output is the failure message when it fails. */
export function runOrFail(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    assert.fail(`${path.basename(command)} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

/** A tool of the workspace (`publint`, `attw`), from its node_modules/.bin. */
export const workspaceBin = (name: string): string => path.join(repoRoot, 'node_modules/.bin', name);

/** The name and version installed in the workspace (`typescript@5.9.3`), for the same one in a scratch project. */
function workspaceVersion(name: string): string {
  const manifest = path.join(repoRoot, 'node_modules', name, 'package.json');
  return `${name}@${JSON.parse(readFileSync(manifest, 'utf8')).version}`;
}

/** Packs `packageDir` (without its prepack build: the test run has built it) and installs the tarball with `extras`. */
export function installPacked(packageDir: string, extras: string[] = []): ScratchInstall {
  const scratch = mkdtempSync(path.join(tmpdir(), 'tarball-'));
  // the package's own folder: in the tests' tree (scripts/test-tree.mjs) its files are links,
  // which npm pack would not follow
  const real = path.dirname(realpathSync(path.join(packageDir, 'package.json')));
  runOrFail('npm', ['pack', '--ignore-scripts', '--pack-destination', scratch], real);
  const tarball = path.join(scratch, readdirSync(scratch).find((f) => f.endsWith('.tgz'))!);
  const project = path.join(scratch, 'project');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), '{ "name": "scratch", "private": true }\n');
  runOrFail(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, ...extras.map(workspaceVersion)],
    project,
  );
  return { tarball, project, remove: () => rmSync(scratch, { recursive: true, force: true }) };
}

/** The ```ts blocks of a README. */
export function readmeTypeScript(readmePath: string): string[] {
  const readme = readFileSync(readmePath, 'utf8');
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** A block as a module: its imports on top, the rest in an async function (CommonJS has no top-level await). */
function asModule(block: string): string {
  const lines = block.split('\n');
  const imports = lines.filter((l) => l.startsWith('import '));
  const body = lines.filter((l) => !l.startsWith('import '));
  return `${imports.join('\n')}\nexport async function example(): Promise<void> {\n${body.join('\n')}\n}\n`;
}

/** The four ways a TypeScript project may resolve a package: bundler and node16, ESM and CommonJS. */
const SETUPS = [
  { name: 'bundler-esm', type: 'module', module: 'esnext', resolution: 'bundler' },
  { name: 'node16-esm', type: 'module', module: 'node16', resolution: 'node16' },
  { name: 'node16-cjs', type: 'commonjs', module: 'node16', resolution: 'node16' },
  { name: 'bundler-cjs', type: 'commonjs', module: 'esnext', resolution: 'bundler' },
] as const;

/**
 * Compiles `blocks` under `strict` in each of the four setups, inside the scratch project (which
 * has `typescript` installed), with the given `lib` and `types`; fails with tsc's output.
 */
export function compileInEverySetup(
  project: string,
  blocks: string[],
  options: { lib: string[]; types: string[] },
): void {
  for (const setup of SETUPS) {
    const dir = path.join(project, setup.name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: setup.type }));
    const files = blocks.map((block, i) => {
      writeFileSync(path.join(dir, `example${i}.ts`), asModule(block));
      return `example${i}.ts`;
    });
    const compilerOptions = {
      strict: true,
      noEmit: true,
      target: 'es2022',
      module: setup.module,
      moduleResolution: setup.resolution,
      skipLibCheck: false,
      ...options,
    };
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
    runOrFail(path.join(project, 'node_modules/.bin/tsc'), ['-p', dir], dir);
  }
}
