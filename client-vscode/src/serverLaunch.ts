/**
 * How the server process is started and checked before the language client
 * talks to it. Pure Node (no `vscode` import), unit-tested with real
 * processes: a missing interpreter, a Python without torchplace, a working one.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ImportStrategy } from './settings';
import { PythonCommand } from './interpreter';

export const SERVER_MODULE = 'torchplace_server';
export const MIN_PYTHON: [number, number] = [3, 10];

export interface ServerLaunch {
    command: string;
    args: string[];
    env: Record<string, string>;
}

/** Where a platform-specific .vsix keeps its copy of torchplace and its dependencies. */
export function bundledLibsDir(extensionRoot: string): string {
    return path.join(extensionRoot, 'client-vscode', 'out', 'bundled', 'libs');
}

/**
 * `python -m torchplace_server`, with the bundled libraries first on
 * PYTHONPATH for `useBundled`. The probe's kernel is started by the server
 * with the same interpreter, so it inherits this environment too.
 */
export function serverLaunch(
    python: PythonCommand,
    strategy: ImportStrategy,
    extensionRoot: string,
    baseEnv: Record<string, string | undefined> = process.env,
): ServerLaunch {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(baseEnv)) {
        if (v !== undefined) {
            env[k] = v;
        }
    }
    env.PYTHONUNBUFFERED = '1';
    env.PYTHONIOENCODING = 'utf-8';
    if (strategy === 'useBundled') {
        const libs = bundledLibsDir(extensionRoot);
        env.PYTHONPATH = env.PYTHONPATH ? `${libs}${path.delimiter}${env.PYTHONPATH}` : libs;
        env.TORCHPLACE_BUNDLED = '1';
    }
    return { command: python[0], args: [...python.slice(1), '-m', SERVER_MODULE], env };
}

/** A shell word for `value` (quoted when it needs to be). */
function shellWord(value: string): string {
    return /^[\w@%+=:,./-]+$/.test(value) ? value : `"${value.replace(/(["\\$`])/g, '\\$1')}"`;
}

/**
 * The command that installs torchplace into `python` from where this extension
 * came: the wheel shipped inside the .vsix, the repository the extension runs
 * from (development), or, for neither, the package index.
 */
export function installCommand(python: string, extensionRoot: string, force = false): string {
    const pip = `${shellWord(python)} -m pip install${force ? ' --force-reinstall' : ''}`;
    if (!extensionRoot) {
        return `${pip} torchplace`;
    }
    const wheels = path.join(extensionRoot, 'client-vscode', 'out', 'wheel');
    const wheel = fs.existsSync(wheels) ? fs.readdirSync(wheels).find((f) => /^torchplace-.*\.whl$/.test(f)) : undefined;
    if (wheel) {
        return `${pip} ${shellWord(path.join(wheels, wheel))}`;
    }
    try {
        if (/^name\s*=\s*"torchplace"/m.test(fs.readFileSync(path.join(extensionRoot, 'pyproject.toml'), 'utf8'))) {
            return `${pip} ${shellWord(extensionRoot)}`;
        }
    } catch {
        // not a repository checkout
    }
    return `${pip} torchplace`;
}

/** Why the server cannot start, in words a user can act on. */
export interface LaunchProblem {
    kind: 'interpreter-missing' | 'interpreter-broken' | 'python-too-old' | 'torchplace-missing' | 'torchplace-broken' | 'bundle-missing';
    message: string;
    /** The setting to change, if changing one fixes it. */
    setting?: string;
    /** A shell command that fixes it, if there is one. */
    fixCommand?: string;
}

/** `useBundled` in a build that carries no server (the universal .vsix). */
export function bundleProblem(extensionRoot: string, strategy: ImportStrategy): LaunchProblem | undefined {
    if (strategy !== 'useBundled' || fs.existsSync(path.join(bundledLibsDir(extensionRoot), SERVER_MODULE))) {
        return undefined;
    }
    return {
        kind: 'bundle-missing',
        message:
            'This build of the extension carries no bundled torchplace (only the platform builds, e.g. linux-x64, do). Install a platform build, or set torchplace.importStrategy to "fromEnvironment" and install torchplace in your interpreter.',
        setting: 'torchplace.importStrategy',
    };
}

const PROBE_SCRIPT = [
    'import sys',
    'print("python", "%d.%d" % sys.version_info[:2])',
    'try:',
    `    import ${SERVER_MODULE}`,
    'except ModuleNotFoundError as e:',
    '    print("missing", e.name)',
    'except Exception as e:',
    '    print("broken", type(e).__name__, e)',
    'else:',
    '    print("ok")',
].join('\n');

export interface CheckOutcome {
    error?: { code?: string | number | null; message: string } | null;
    stdout: string;
    stderr: string;
}

/** Runs the interpreter once to check that it starts and can import the server. */
export function checkLaunch(launch: ServerLaunch, extensionRoot = '', timeoutMs = 20000): Promise<LaunchProblem | undefined> {
    return new Promise((resolve) => {
        execFile(
            launch.command,
            [...launch.args.slice(0, -2), '-c', PROBE_SCRIPT],
            { env: launch.env, timeout: timeoutMs, encoding: 'utf8' },
            (error, stdout, stderr) => resolve(diagnoseLaunch(launch, { error, stdout, stderr }, extensionRoot)),
        );
    });
}

/** Turns the check's output into a problem, or undefined when the server can start. */
export function diagnoseLaunch(launch: ServerLaunch, outcome: CheckOutcome, extensionRoot = ''): LaunchProblem | undefined {
    const python = launch.command;
    const bundled = launch.env.TORCHPLACE_BUNDLED === '1';
    if (outcome.error && (outcome.error.code === 'ENOENT' || outcome.error.code === 'EACCES')) {
        return {
            kind: 'interpreter-missing',
            message: `The Python interpreter "${python}" was not found or cannot be run.`,
            setting: 'torchplace.interpreter',
        };
    }
    const versionMatch = /^python (\d+)\.(\d+)$/m.exec(outcome.stdout);
    if (!versionMatch) {
        const detail = (outcome.stderr || outcome.error?.message || '').trim().split('\n').slice(-1)[0];
        return {
            kind: 'interpreter-broken',
            message: `"${python}" did not run as Python${detail ? `: ${detail}` : ''}.`,
            setting: 'torchplace.interpreter',
        };
    }
    const version: [number, number] = [Number(versionMatch[1]), Number(versionMatch[2])];
    if (version[0] < MIN_PYTHON[0] || (version[0] === MIN_PYTHON[0] && version[1] < MIN_PYTHON[1])) {
        return {
            kind: 'python-too-old',
            message: `torchplace needs Python ${MIN_PYTHON.join('.')} or newer; "${python}" is Python ${version.join('.')}.`,
            setting: 'torchplace.interpreter',
        };
    }
    const missing = /^missing (.*)$/m.exec(outcome.stdout);
    if (missing) {
        if (bundled) {
            return {
                kind: 'torchplace-broken',
                message: `The torchplace bundled with this extension cannot be imported by "${python}" (module ${missing[1]} is missing). This build of the extension may not match your platform or Python version.`,
                setting: 'torchplace.importStrategy',
                fixCommand: installCommand(python, extensionRoot),
            };
        }
        return {
            kind: 'torchplace-missing',
            message:
                missing[1] === SERVER_MODULE
                    ? `torchplace is not installed in "${python}".`
                    : `torchplace is installed in "${python}" but its dependency "${missing[1]}" is missing.`,
            setting: 'torchplace.importStrategy',
            fixCommand: installCommand(python, extensionRoot),
        };
    }
    const broken = /^broken (.*)$/m.exec(outcome.stdout);
    if (broken || !/^ok$/m.test(outcome.stdout)) {
        return {
            kind: 'torchplace-broken',
            message: `torchplace could not be imported by "${python}": ${broken ? broken[1] : outcome.stderr.trim() || 'unknown error'}.`,
            setting: 'torchplace.interpreter',
            fixCommand: installCommand(python, extensionRoot, true),
        };
    }
    return undefined;
}
