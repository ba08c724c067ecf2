/**
 * Which Python runs the server and the probe, resolved the way Microsoft's
 * Python tool extensions do it: the `torchplace.interpreter` setting, then the
 * Python Environments extension, then the Python extension, then `python3` on
 * PATH. Pure (no `vscode` import): each step is an `InterpreterSource`, so the
 * order and the fall-through on errors are unit-tested.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A command that starts Python: the executable, then any fixed arguments. */
export type PythonCommand = string[];

export interface InterpreterSource {
    /** Shown in the log and the status item, e.g. "torchplace.interpreter setting". */
    readonly name: string;
    /** The interpreter this source chooses, or undefined when it has no opinion. */
    resolve(): Promise<PythonCommand | undefined>;
}

export interface ResolvedInterpreter {
    command: PythonCommand;
    source: string;
}

/**
 * The first source that names an interpreter wins. A source that throws is
 * logged through `onError` and skipped: a broken Python extension must not
 * stop the linter.
 */
export async function resolveInterpreter(
    sources: readonly InterpreterSource[],
    onError: (source: string, error: unknown) => void = () => undefined,
): Promise<ResolvedInterpreter | undefined> {
    for (const source of sources) {
        let command: PythonCommand | undefined;
        try {
            command = await source.resolve();
        } catch (error) {
            onError(source.name, error);
            continue;
        }
        if (command && command.length > 0 && command[0].trim() !== '') {
            return { command, source: source.name };
        }
    }
    return undefined;
}

/** The `torchplace.interpreter` setting, when set. */
export function settingSource(interpreter: readonly string[]): InterpreterSource {
    return {
        name: 'torchplace.interpreter setting',
        resolve: async () => (interpreter.length > 0 ? [...interpreter] : undefined),
    };
}

/** The first of `names` found as an executable file in the PATH directories. */
export function findOnPath(
    names: readonly string[],
    pathVariable: string | undefined,
    isExecutable: (file: string) => boolean = isExecutableFile,
): string | undefined {
    const dirs = (pathVariable ?? '').split(path.delimiter).filter((d) => d.length > 0);
    for (const name of names) {
        for (const dir of dirs) {
            const candidate = path.join(dir, name);
            if (isExecutable(candidate)) {
                return candidate;
            }
        }
    }
    return undefined;
}

/** `python3` (then `python`) on PATH: the last resort. */
export function pathSource(pathVariable: string | undefined, isExecutable?: (file: string) => boolean): InterpreterSource {
    const names = process.platform === 'win32' ? ['python.exe', 'python3.exe'] : ['python3', 'python'];
    return {
        name: 'python3 on PATH',
        resolve: async () => {
            const found = findOnPath(names, pathVariable, isExecutable);
            return found ? [found] : undefined;
        },
    };
}

function isExecutableFile(file: string): boolean {
    try {
        fs.accessSync(file, fs.constants.X_OK);
        return fs.statSync(file).isFile();
    } catch {
        return false;
    }
}
