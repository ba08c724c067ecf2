/**
 * One code-server + Chromium session for an end-to-end suite: start, open the
 * workbench, take a screenshot when a step fails, tear everything down.
 * (probe.e2e uses it; editor.e2e and bundled.e2e set up the same way by hand.)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Browser, chromium } from 'playwright-core';
import { RunningCodeServer, startCodeServer } from './codeServer';
import { REPO, required } from './fixtures';
import { Workbench } from './workbench';

export interface E2eSession {
    server: RunningCodeServer;
    browser: Browser;
    wb: Workbench;
}

export async function openSession(
    artifacts: string,
    pythonBinDir: string,
    userSettings: Record<string, unknown>,
    machineSettings: Record<string, unknown>,
): Promise<E2eSession> {
    fs.rmSync(artifacts, { recursive: true, force: true });
    fs.mkdirSync(artifacts, { recursive: true });
    const server = await startCodeServer({
        codeServerBin: required('CODE_SERVER_ENTRY'),
        nodeBin: required('NODE24'),
        vsix: required('VSIX'),
        workspaceSource: path.join(REPO, 'client-vscode', 'e2e', 'workspace'),
        pythonBinDir,
        userSettings,
        machineSettings,
        logFile: path.join(artifacts, 'code-server.log'),
        keepLogsIn: path.join(artifacts, 'logs'),
    });
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    page.setDefaultTimeout(30000);
    const wb = new Workbench(page, artifacts);
    await page.goto(server.url);
    await wb.waitForWorkbench();
    return { server, browser, wb };
}

export async function closeSession(session: E2eSession | undefined): Promise<void> {
    await session?.browser.close().catch(() => undefined);
    await session?.server.stop();
}

/** Runs one step; on failure leaves a screenshot of what was on screen. */
export async function step(wb: Workbench, name: string, body: () => Promise<void>): Promise<void> {
    try {
        await body();
    } catch (error) {
        await wb.screenshot(`FAILED-${name}`).catch(() => undefined);
        throw error;
    }
}
