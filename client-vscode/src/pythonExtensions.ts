/**
 * Interpreter sources backed by the Python Environments extension
 * (`ms-python.vscode-python-envs`) and the Python extension (`ms-python.python`),
 * plus their "the interpreter changed" events.
 *
 * Only the few API members used here are typed, and every one is checked at
 * run time: these are other extensions' objects and may change shape.
 */
import * as vscode from 'vscode';
import { InterpreterSource, PythonCommand } from './interpreter';

export const PYTHON_ENVS_EXTENSION = 'ms-python.vscode-python-envs';
export const PYTHON_EXTENSION = 'ms-python.python';

interface EnvsApi {
    getEnvironment(scope: vscode.Uri | undefined): Promise<EnvsEnvironment | undefined>;
    onDidChangeEnvironment?: vscode.Event<unknown>;
}

interface EnvsEnvironment {
    execInfo?: { run?: { executable?: string; args?: string[] } };
    environmentPath?: vscode.Uri;
}

interface PythonApi {
    environments?: {
        getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } | undefined;
        resolveEnvironment(env: { path: string } | string): Promise<{ executable?: { uri?: vscode.Uri } } | undefined>;
        onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
    };
}

async function activated<T>(id: string): Promise<T | undefined> {
    const extension = vscode.extensions.getExtension<T>(id);
    if (!extension) {
        return undefined;
    }
    return extension.isActive ? extension.exports : await extension.activate();
}

function isFunction(value: unknown): value is (...args: unknown[]) => unknown {
    return typeof value === 'function';
}

/** The environment the Python Environments extension selected for `resource`. */
export function pythonEnvironmentsSource(resource: vscode.Uri | undefined): InterpreterSource {
    return {
        name: 'Python Environments extension',
        resolve: async (): Promise<PythonCommand | undefined> => {
            const api = await activated<EnvsApi>(PYTHON_ENVS_EXTENSION);
            if (!api || !isFunction(api.getEnvironment)) {
                return undefined;
            }
            const env = await api.getEnvironment(resource);
            const run = env?.execInfo?.run;
            if (run && typeof run.executable === 'string' && run.executable) {
                return [run.executable, ...(Array.isArray(run.args) ? run.args : [])];
            }
            return undefined;
        },
    };
}

/** The interpreter the Python extension selected for `resource`. */
export function pythonExtensionSource(resource: vscode.Uri | undefined): InterpreterSource {
    return {
        name: 'Python extension',
        resolve: async (): Promise<PythonCommand | undefined> => {
            const api = await activated<PythonApi>(PYTHON_EXTENSION);
            const environments = api?.environments;
            if (!environments || !isFunction(environments.getActiveEnvironmentPath)) {
                return undefined;
            }
            const active = environments.getActiveEnvironmentPath(resource);
            if (!active) {
                return undefined;
            }
            const resolved = await environments.resolveEnvironment(active);
            const executable = resolved?.executable?.uri?.fsPath;
            return executable ? [executable] : undefined;
        },
    };
}

/**
 * Calls `listener` whenever either extension reports a new interpreter.
 * Extensions installed later are picked up through `extensions.onDidChange`.
 */
export function onInterpreterChanged(listener: () => void): vscode.Disposable {
    const subscriptions: vscode.Disposable[] = [];
    const hooked = new Set<string>();
    const hook = async () => {
        for (const id of [PYTHON_ENVS_EXTENSION, PYTHON_EXTENSION]) {
            if (hooked.has(id) || !vscode.extensions.getExtension(id)) {
                continue;
            }
            hooked.add(id);
            try {
                const api = await activated<EnvsApi & PythonApi>(id);
                const event = id === PYTHON_ENVS_EXTENSION ? api?.onDidChangeEnvironment : api?.environments?.onDidChangeActiveEnvironmentPath;
                if (isFunction(event)) {
                    subscriptions.push(event(() => listener()));
                }
            } catch {
                // An extension that fails to activate has no interpreter to follow.
            }
        }
    };
    void hook();
    subscriptions.push(vscode.extensions.onDidChange(() => void hook()));
    return vscode.Disposable.from({ dispose: () => subscriptions.forEach((s) => s.dispose()) });
}

export const PYLANCE_EXTENSION = 'ms-python.vscode-pylance';
export const PYRIGHT_EXTENSION = 'ms-pyright.pyright';

/**
 * Whether Pylance or Pyright reports Python syntax errors in this window: then
 * torchplace's own syntax error (TP001) would only repeat theirs.
 */
export function otherParserActive(): boolean {
    if (vscode.extensions.getExtension(PYRIGHT_EXTENSION)) {
        return true;
    }
    if (!vscode.extensions.getExtension(PYLANCE_EXTENSION)) {
        return false;
    }
    const server = vscode.workspace.getConfiguration('python').get<string>('languageServer', 'Default');
    return server !== 'None' && server !== 'Jedi';
}
