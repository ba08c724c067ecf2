/**
 * Starts code-server (real VS Code) on 127.0.0.1 with the packaged extension
 * installed in a throw-away profile, and tears the whole process tree down
 * afterwards. Every process it starts carries TORCHPLACE_E2E_RUN=<id> in its
 * environment so that stray children (extension host, language server,
 * kernels, copilot helpers) are found and ended too.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

export interface CodeServerOptions {
    codeServerBin: string;
    nodeBin: string;
    vsix: string;
    workspaceSource: string;
    pythonBinDir: string;
    userSettings: Record<string, unknown>;
    /**
     * Remote (machine) settings: code-server is a remote window, so machine-scoped
     * settings such as `torchplace.interpreter` are read from here, not from user settings.
     */
    machineSettings?: Record<string, unknown>;
    logFile: string;
    /** Where to copy VS Code's logs (the extension's included) before the profile is removed. */
    keepLogsIn?: string;
    /** More code-server arguments, e.g. `['--log', 'trace']` to see the LSP traffic. */
    extraArgs?: string[];
}

export interface RunningCodeServer {
    url: string;
    workspace: string;
    userSettingsFile: string;
    machineSettingsFile: string;
    /** VS Code's logs of this run (the extension's own log among them). */
    logsDir: string;
    stop(): Promise<void>;
}

async function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const server = net.createServer();
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => {
            const address = server.address();
            server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
        });
    });
}

async function waitForHttp(url: string, timeoutMs: number, child: ChildProcess): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
        if (child.exitCode !== null) {
            throw new Error(`code-server exited with ${child.exitCode}`);
        }
        try {
            const response = await fetch(url);
            if (response.status < 500) {
                return;
            }
        } catch {
            // not listening yet
        }
        await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`code-server did not answer at ${url} within ${timeoutMs} ms`);
}

/** Pids of live processes whose environment holds our run marker. */
function markedPids(marker: string): number[] {
    const pids: number[] = [];
    for (const entry of fs.readdirSync('/proc')) {
        if (!/^\d+$/.test(entry) || Number(entry) === process.pid) {
            continue;
        }
        try {
            const env = fs.readFileSync(`/proc/${entry}/environ`, 'latin1');
            if (env.includes(`TORCHPLACE_E2E_RUN=${marker}\0`)) {
                pids.push(Number(entry));
            }
        } catch {
            // gone, or not ours to read
        }
    }
    return pids;
}

function killAll(pids: number[], signal: NodeJS.Signals): void {
    for (const pid of pids) {
        try {
            process.kill(pid, signal);
        } catch {
            // already gone
        }
    }
}

export async function startCodeServer(options: CodeServerOptions): Promise<RunningCodeServer> {
    const marker = `${process.pid}-${Date.now()}`;
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'torchplace-e2e-'));
    const home = path.join(root, 'home');
    const userData = path.join(root, 'user-data');
    const extensions = path.join(root, 'extensions');
    const workspace = path.join(root, 'workspace');
    fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
    fs.mkdirSync(home, { recursive: true });
    fs.cpSync(options.workspaceSource, workspace, { recursive: true });
    const userSettingsFile = path.join(userData, 'User', 'settings.json');
    fs.writeFileSync(userSettingsFile, JSON.stringify(options.userSettings, null, 2));
    const machineSettingsFile = path.join(userData, 'Machine', 'settings.json');
    fs.mkdirSync(path.dirname(machineSettingsFile), { recursive: true });
    fs.writeFileSync(machineSettingsFile, JSON.stringify(options.machineSettings ?? {}, null, 2));

    const env: Record<string, string> = {
        ...(process.env as Record<string, string>),
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, '.config'),
        XDG_DATA_HOME: path.join(home, '.local', 'share'),
        PATH: [options.pythonBinDir, path.dirname(options.nodeBin), process.env.PATH ?? ''].join(path.delimiter),
        TORCHPLACE_E2E_RUN: marker,
    };
    delete env.PYTHONPATH;
    delete env.VIRTUAL_ENV;
    const common = ['--user-data-dir', userData, '--extensions-dir', extensions];
    execFileSync(options.nodeBin, [options.codeServerBin, ...common, '--install-extension', options.vsix], {
        env,
        stdio: 'pipe',
        timeout: 120000,
    });

    const port = await freePort();
    fs.mkdirSync(path.dirname(options.logFile), { recursive: true });
    const log = fs.openSync(options.logFile, 'w');
    const child = spawn(
        options.nodeBin,
        [
            options.codeServerBin,
            ...common,
            '--auth',
            'none',
            '--bind-addr',
            `127.0.0.1:${port}`,
            '--disable-telemetry',
            '--disable-update-check',
            '--disable-workspace-trust',
            '--disable-getting-started-override',
            ...(options.extraArgs ?? []),
            workspace,
        ],
        { env, detached: true, stdio: ['ignore', log, log] },
    );
    const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`;
    const stop = async () => {
        // The process group first (code-server and what it spawned), then
        // anything marked that escaped it; SIGKILL for what ignores SIGTERM.
        try {
            process.kill(-child.pid!, 'SIGTERM');
        } catch {
            // already gone
        }
        killAll(markedPids(marker), 'SIGTERM');
        const deadline = Date.now() + 5000;
        while (Date.now() < deadline && markedPids(marker).length > 0) {
            await new Promise((r) => setTimeout(r, 200));
        }
        try {
            process.kill(-child.pid!, 'SIGKILL');
        } catch {
            // already gone
        }
        killAll(markedPids(marker), 'SIGKILL');
        fs.closeSync(log);
        if (options.keepLogsIn && fs.existsSync(path.join(userData, 'logs'))) {
            fs.cpSync(path.join(userData, 'logs'), options.keepLogsIn, { recursive: true });
        }
        fs.rmSync(root, { recursive: true, force: true });
    };
    try {
        await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60000, child);
    } catch (error) {
        await stop();
        throw error;
    }
    return { url, workspace, userSettingsFile, machineSettingsFile, logsDir: path.join(userData, 'logs'), stop };
}
