/**
 * The language client's life: resolve the interpreter, check it can run the
 * server, start `python -m torchplace_server` over stdio, reconfigure or
 * restart it when settings or the interpreter change, restart it a few times
 * when it crashes, then stop and say so.
 */
import * as readline from 'node:readline';
import * as vscode from 'vscode';
import {
    CloseAction,
    DidChangeConfigurationNotification,
    ErrorAction,
    LanguageClient,
    LanguageClientOptions,
    Middleware,
    RevealOutputChannelOn,
    State,
    Trace,
} from 'vscode-languageclient/node';
import { resolveInterpreter, pathSource, settingSource, ResolvedInterpreter } from './interpreter';
import { otherParserActive, pythonEnvironmentsSource, pythonExtensionSource } from './pythonExtensions';
import { SHOW_RULE_DOCS_COMMAND, showRuleDocs } from './ruleDocs';
import { bundleProblem, checkLaunch, serverLaunch, LaunchProblem } from './serverLaunch';
import { RestartBudget } from './restartBudget';
import { Notifier } from './notifications';
import { PROBE_CELL_COMMAND } from './probeCommands';
import { SECTION, TorchplaceSettings, problemsMessage, serverSettings, SettingProblem } from './settings';
import { settingsFor } from './vscodeSettings';
import { QuietLanguageClient } from './quietClient';

export { settingsFor };

export type ServerState = 'disabled' | 'starting' | 'running' | 'stopped' | 'failed';

export interface ServerStatus {
    state: ServerState;
    detail: string;
    interpreter?: ResolvedInterpreter;
}

/** Python documents on disk, unsaved, and in notebook cells. */
export const DOCUMENT_SELECTOR = [
    { scheme: 'file', language: 'python' },
    { scheme: 'untitled', language: 'python' },
    { scheme: 'vscode-notebook-cell', language: 'python' },
];

export function traceFor(level: vscode.LogLevel): Trace {
    if (level === vscode.LogLevel.Trace) {
        return Trace.Verbose;
    }
    return level === vscode.LogLevel.Debug ? Trace.Messages : Trace.Off;
}

export class ServerClient implements vscode.Disposable {
    private client: LanguageClient | undefined;
    /** Whether the current client reached Running (crashes after that are restarted). */
    private everRan = false;
    /** Whether its final stop was already reported. */
    private reportedStop = false;
    /** The server's last stderr lines: the reason it died is usually there. */
    private stderrTail: string[] = [];
    /** Listeners of the current client, dropped with it. */
    private clientListeners: vscode.Disposable[] = [];
    /** The setting problems last shown (one message per change, not repeated while unchanged). */
    private shownProblems = '';
    private readonly budget = new RestartBudget();
    private readonly statusEmitter = new vscode.EventEmitter<ServerStatus>();
    private queue: Promise<void> = Promise.resolve();
    private readonly disposables: vscode.Disposable[] = [];

    readonly onDidChangeStatus = this.statusEmitter.event;

    constructor(
        private readonly extensionRoot: string,
        private readonly log: vscode.LogOutputChannel,
        private readonly notifier: Notifier,
        private readonly middleware: Middleware,
    ) {
        this.disposables.push(
            log.onDidChangeLogLevel((level) => {
                void this.client?.setTrace(traceFor(level));
            }),
        );
    }

    get languageClient(): LanguageClient | undefined {
        return this.client?.state === State.Running ? this.client : undefined;
    }

    /** Starts, stops and restarts run one after another, never interleaved. */
    private serially(task: () => Promise<void>): Promise<void> {
        this.queue = this.queue.then(task, task).catch((error) => this.log.error(`unexpected: ${String(error)}`));
        return this.queue;
    }

    /** (Re)starts the server as the settings say (a start asked for resets the crash budget). */
    restart(): Promise<void> {
        return this.serially(async () => {
            this.budget.reset();
            await this.stopClient();
            await this.startClient();
        });
    }

    stop(): Promise<void> {
        return this.serially(() => this.stopClient());
    }

    /** Sends changed settings to a running server, which also pulls them with `workspace/configuration`. */
    async reconfigure(): Promise<void> {
        const client = this.languageClient;
        if (!client) {
            return;
        }
        const { settings } = settingsFor(vscode.workspace.workspaceFolders?.[0]?.uri);
        this.log.info('settings changed: sending them to the server');
        await client.sendNotification(DidChangeConfigurationNotification.type, {
            settings: { [SECTION]: serverSettings(settings, { otherParserActive: otherParserActive() }) },
        });
    }

    private setStatus(status: ServerStatus): void {
        this.statusEmitter.fire(status);
    }

    private async stopClient(): Promise<void> {
        const client = this.client;
        this.client = undefined;
        this.clientListeners.forEach((d) => d.dispose());
        this.clientListeners = [];
        if (client) {
            try {
                await client.stop(5000);
            } catch (error) {
                this.log.warn(`stopping the server: ${String(error)}`);
            }
            await client.dispose().catch(() => undefined);
        }
        this.setStatus({ state: 'stopped', detail: 'stopped' });
    }

    private async startClient(): Promise<void> {
        const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
        const { settings, problems } = settingsFor(resource);
        this.reportSettingProblems(problems);
        if (!settings.enable) {
            this.setStatus({ state: 'disabled', detail: 'disabled by torchplace.enable' });
            return;
        }
        this.setStatus({ state: 'starting', detail: 'finding a Python interpreter' });

        const interpreter = await resolveInterpreter(
            [settingSource(settings.interpreter), pythonEnvironmentsSource(resource), pythonExtensionSource(resource), pathSource(process.env.PATH)],
            (source, error) => this.log.warn(`${source}: ${String(error)}`),
        );
        if (!interpreter) {
            this.failed(
                {
                    kind: 'interpreter-missing',
                    message: 'No Python interpreter found: torchplace.interpreter is empty, no Python extension chose one, and there is no python3 on PATH.',
                    setting: 'torchplace.interpreter',
                },
                undefined,
            );
            return;
        }
        this.log.info(`interpreter: ${interpreter.command.join(' ')} (from the ${interpreter.source})`);

        const launch = serverLaunch(interpreter.command, settings.importStrategy, this.extensionRoot);
        this.setStatus({ state: 'starting', detail: `checking ${interpreter.command[0]}`, interpreter });
        const problem = bundleProblem(this.extensionRoot, settings.importStrategy) ?? (await checkLaunch(launch, this.extensionRoot));
        if (problem) {
            this.failed(problem, interpreter);
            return;
        }

        this.log.info(`starting: ${launch.command} ${launch.args.join(' ')} (importStrategy ${settings.importStrategy})`);
        this.everRan = false;
        this.reportedStop = false;
        this.stderrTail = [];
        const client = new QuietLanguageClient(
            'torchplace',
            'torchplace',
            { command: launch.command, args: launch.args, options: { env: launch.env, cwd: resource?.fsPath } },
            this.clientOptions(settings, interpreter),
        );
        this.client = client;
        this.clientListeners.push(
            client.onDidChangeState((event) => {
                if (this.client !== client) {
                    return; // an old client, or one we are stopping on purpose
                }
                if (event.newState === State.Running) {
                    this.running(client, interpreter);
                } else if (event.newState === State.Starting) {
                    this.setStatus({ state: 'starting', detail: 'starting the server', interpreter });
                }
            }),
        );
        try {
            await client.start();
            if (client.state !== State.Running) {
                throw new Error('it stopped during initialization');
            }
            await client.setTrace(traceFor(this.log.logLevel));
            this.running(client, interpreter);
        } catch (error) {
            if (this.client === client) {
                this.client = undefined;
                this.clientListeners.forEach((d) => d.dispose());
                this.clientListeners = [];
                await client.dispose().catch(() => undefined);
                await new Promise((r) => setTimeout(r, 300)); // let its last stderr lines arrive
                this.failed(
                    {
                        kind: 'torchplace-broken',
                        message: `The server "${launch.command} ${launch.args.join(' ')}" exited while starting.${this.lastOutput() || ` (${errorText(error)})`} Its full output is in the log.`,
                    },
                    interpreter,
                );
            }
        }
    }

    /** The running server went away and will not come back: say so once. */
    private stoppedForGood(interpreter: ResolvedInterpreter): void {
        if (this.reportedStop) {
            return;
        }
        this.reportedStop = true;
        const crashes = this.budget.recentCrashes;
        const message =
            crashes > this.budget.maxRestarts
                ? `The server stopped unexpectedly ${crashes} times in ${Math.round(this.budget.windowMs / 60000)} minutes, so it was not restarted again. See "torchplace: Show Logs", then run "torchplace: Restart Server".`
                : 'The server stopped. See "torchplace: Show Logs", then run "torchplace: Restart Server".';
        const detail = this.lastOutput();
        this.setStatus({ state: 'failed', detail: message, interpreter });
        this.tell(`${message}${detail}`, ['Show Logs', 'Restart Server']);
    }

    private lastOutput(): string {
        const last = this.stderrTail[this.stderrTail.length - 1];
        return last ? ` Its last words: "${last.length > 200 ? `${last.slice(0, 200)}…` : last}".` : '';
    }

    private running(client: LanguageClient, interpreter: ResolvedInterpreter): void {
        this.everRan = true;
        const info = client.initializeResult?.serverInfo;
        this.setStatus({
            state: 'running',
            detail: `${info?.name ?? 'torchplace'} ${info?.version ?? ''}`.trim(),
            interpreter,
        });
    }

    private clientOptions(settings: TorchplaceSettings, interpreter: ResolvedInterpreter): LanguageClientOptions {
        const environment = () => ({ otherParserActive: otherParserActive() });
        return {
            documentSelector: DOCUMENT_SELECTOR,
            outputChannel: this.log,
            traceOutputChannel: this.log,
            revealOutputChannelOn: RevealOutputChannelOn.Never,
            stdioOptions: {
                stdout: (input, channel) => lines(input, (line) => channel.info(line)),
                stderr: (input, channel) =>
                    lines(input, (line) => {
                        channel.error(line);
                        this.stderrTail = [...this.stderrTail.slice(-19), line];
                    }),
            },
            initializationOptions: serverSettings(settings, environment()),
            middleware: {
                ...this.middleware,
                executeCommand: async (command, args, next) => {
                    if (command === SHOW_RULE_DOCS_COMMAND && (await showRuleDocs(this.extensionRoot, args[0]))) {
                        return true; // rendered here; other editors get the page in a browser
                    }
                    if (command === PROBE_CELL_COMMAND && !vscode.workspace.isTrusted) {
                        void this.notifier.notify('warning', 'The probe runs code, so it is off in an untrusted workspace. Trust the workspace to use it.', [], true);
                        return undefined;
                    }
                    return this.middleware.executeCommand ? this.middleware.executeCommand(command, args, next) : next(command, args);
                },
                workspace: {
                    ...this.middleware.workspace,
                    // Answers for `torchplace` with validated, server-only keys.
                    configuration: async (params, token, next) => {
                        const answers = await next(params, token);
                        if (!Array.isArray(answers)) {
                            return answers;
                        }
                        return params.items.map((item, i) => {
                            if (item.section !== SECTION) {
                                return answers[i];
                            }
                            const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
                            return serverSettings(settingsFor(scope).settings, environment());
                        });
                    },
                },
            },
            // A failed initialize is reported by startClient; no retry.
            initializationFailedHandler: (error) => {
                this.log.error(`initialization failed: ${errorText(error)}`);
                return false;
            },
            errorHandler: {
                error: () => ({ action: ErrorAction.Continue, handled: true }),
                closed: () => {
                    // A server that never got going is a start failure (startClient says so);
                    // one that ran and crashed is restarted a few times, then reported once:
                    // decided here, when the connection closes, not by a timer.
                    if (this.everRan && this.budget.crashed()) {
                        this.log.warn(`the server stopped unexpectedly; restarting it (${this.budget.recentCrashes} of ${this.budget.maxRestarts})`);
                        return { action: CloseAction.Restart, handled: true };
                    }
                    if (this.everRan) {
                        queueMicrotask(() => this.stoppedForGood(interpreter));
                    }
                    return { action: CloseAction.DoNotRestart, handled: true };
                },
            },
        };
    }

    private failed(problem: LaunchProblem, interpreter: ResolvedInterpreter | undefined): void {
        this.setStatus({ state: 'failed', detail: problem.message, interpreter });
        let fix = '';
        if (problem.fixCommand && problem.kind === 'torchplace-missing') {
            fix = ` Run "${problem.fixCommand}", or set torchplace.importStrategy to "useBundled".`;
        } else if (problem.fixCommand) {
            fix = ` Run "${problem.fixCommand}".`;
        } else if (problem.setting) {
            fix = ` Check the ${problem.setting} setting.`;
        }
        const actions = [...(problem.fixCommand ? ['Copy Install Command'] : []), ...(problem.setting ? ['Open Settings'] : []), 'Show Logs'];
        this.tell(`${problem.message}${fix}`, actions, problem);
    }

    /**
     * Shows an error with its actions and carries out the one picked. Not
     * awaited: a toast the user leaves open must not hold up the restart
     * that their fix (a settings change) triggers.
     */
    private tell(message: string, actions: string[], fix: { fixCommand?: string; setting?: string } = {}): void {
        void this.notifier.notify('error', message, actions, true).then(async (choice) => {
            if (choice === 'Copy Install Command' && fix.fixCommand) {
                await vscode.env.clipboard.writeText(fix.fixCommand);
            } else if (choice === 'Open Settings') {
                await vscode.commands.executeCommand('workbench.action.openSettings', fix.setting);
            } else if (choice === 'Show Logs') {
                this.log.show();
            } else if (choice === 'Restart Server') {
                await vscode.commands.executeCommand('torchplace.restartServer');
            }
        });
    }

    /** One message naming every wrong setting and the value used instead; not repeated while unchanged. */
    reportSettingProblems(problems: SettingProblem[]): void {
        const message = problems.length > 0 ? problemsMessage(problems) : '';
        if (message === this.shownProblems) {
            return;
        }
        this.shownProblems = message;
        if (!message) {
            return;
        }
        void this.notifier
            .notify('warning', message, ['Open Settings'], true)
            .then((choice) => (choice ? vscode.commands.executeCommand('workbench.action.openSettings', problems[0].key) : undefined));
    }

    dispose(): void {
        void this.stopClient();
        this.disposables.forEach((d) => d.dispose());
        this.statusEmitter.dispose();
    }
}

function lines(input: NodeJS.ReadableStream, onLine: (line: string) => void): void {
    readline.createInterface({ input, crlfDelay: Infinity, terminal: false }).on('line', (line) => {
        if (line.trim()) {
            onLine(line);
        }
    });
}

function errorText(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}
