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
import ts from 'typescript';

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
 * Type-checks `blocks` under `strict` in each of the four setups, inside the scratch project,
 * with the given `lib` and `types`; fails with the compiler's messages.
 *
 * What is checked is what a user's `tsc` would report about this package: the examples, and
 * the package's own declaration files read as the setup resolves them (`skipLibCheck` off for
 * them). Other packages' declarations (`@types/node`, TypeScript's libraries) are read as
 * needed but not checked whole: four `tsc` runs each checked all 60,000 lines of them, 16 s of
 * CPU of which 12 went to files that are not ours (issue 41). One compiler host shares the
 * parsed files between the setups. The workspace's TypeScript is the version users get.
 */
export function compileInEverySetup(
  project: string,
  blocks: string[],
  options: { lib: string[]; types: string[] },
): void {
  const parsed = new Map<string, ts.SourceFile | undefined>();
  for (const setup of SETUPS) {
    const dir = path.join(project, setup.name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: setup.type }));
    const files = blocks.map((block, i) => {
      const file = path.join(dir, `example${i}.ts`);
      writeFileSync(file, asModule(block));
      return file;
    });
    const config = ts.convertCompilerOptionsFromJson(
      {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module: setup.module,
        moduleResolution: setup.resolution,
        skipLibCheck: false,
        lib: options.lib,
        types: options.types,
      },
      dir,
    );
    assert.deepEqual(config.errors, [], 'compiler options');
    const compilerOptions = { ...config.options, typeRoots: [path.join(project, 'node_modules/@types')] };
    const host = ts.createCompilerHost(compilerOptions);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, version, ...rest) => {
      const key = `${fileName}\0${JSON.stringify(version)}`;
      if (!parsed.has(key)) parsed.set(key, read(fileName, version, ...rest));
      return parsed.get(key);
    };
    const program = ts.createProgram({ rootNames: files, options: compilerOptions, host });
    const ours = (file: ts.SourceFile) =>
      !file.isDeclarationFile || !path.relative(project, file.fileName).match(/node_modules\/(?!@service\/)/);
    const diagnostics = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...program.getSyntacticDiagnostics(),
      ...program
        .getSourceFiles()
        .filter(ours)
        .flatMap((file) => program.getSemanticDiagnostics(file)),
    ];
    assert.equal(
      diagnostics.length,
      0,
      `${setup.name}:\n${ts.formatDiagnostics(diagnostics, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => dir,
        getNewLine: () => '\n',
      })}`,
    );
  }
}
