/**
 * The platform build (`vsce package --target linux-x64`) in real VS Code: with
 * `importStrategy: useBundled` the server runs from the copy inside the
 * extension, in a Python that has no torchplace installed at all.
 *
 * Run by scripts/test.d/50-vscode.sh with VSIX_BUNDLED (the platform .vsix)
 * and BARE_PYTHON (an interpreter without torchplace).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Browser, chromium } from 'playwright-core';
import { RunningCodeServer, startCodeServer } from './codeServer';
import { Workbench } from './workbench';

const REPO = path.resolve(__dirname, '../../..');
const ARTIFACTS = path.join(REPO, 'test-artifacts', 'vscode-bundled');
const vsix = process.env.VSIX_BUNDLED;
const bare = process.env.BARE_PYTHON;

function lacksTorchplace(python: string): boolean {
    try {
        execFileSync(python, ['-c', 'import torchplace_server'], { stdio: 'ignore' });
        return false;
    } catch {
        return true;
    }
}

const skip = !vsix || !bare ? 'VSIX_BUNDLED and BARE_PYTHON are not set' : !lacksTorchplace(bare) ? `${bare} has torchplace installed` : false;
if (skip) {
    console.log(`# skipping the bundled-server suite: ${skip}`);
}

describe('torchplace platform build with importStrategy useBundled', { skip, timeout: 5 * 60 * 1000 }, () => {
    let server: RunningCodeServer;
    let browser: Browser;
    let wb: Workbench;

    before(async () => {
        fs.rmSync(ARTIFACTS, { recursive: true, force: true });
        server = await startCodeServer({
            codeServerBin: process.env.CODE_SERVER_ENTRY!,
            nodeBin: process.env.NODE24!,
            vsix: vsix!,
            workspaceSource: path.join(REPO, 'client-vscode', 'e2e', 'workspace'),
            pythonBinDir: path.dirname(bare!),
            userSettings: {
                'workbench.startupEditor': 'none',
                'security.workspace.trust.enabled': false,
                'chat.disableAIFeatures': true,
                'workbench.secondarySideBar.defaultVisibility': 'hidden',
                'torchplace.importStrategy': 'useBundled',
            },
            machineSettings: { 'torchplace.interpreter': [bare] }, // machine-overridable: a remote window reads it here
            logFile: path.join(ARTIFACTS, 'code-server.log'),
            keepLogsIn: path.join(ARTIFACTS, 'logs'),
        });
        browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
        const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
        page.setDefaultTimeout(30000);
        wb = new Workbench(page, ARTIFACTS);
        await page.goto(server.url);
        await wb.waitForWorkbench();
    });

    after(async () => {
        await browser?.close().catch(() => undefined);
        await server?.stop();
    });

    it('checks a file with the bundled server in a Python without torchplace', async () => {
        await wb.openFile('mixed_devices.py');
        await wb.activeEditor().locator('.squiggly-error').first().waitFor({ timeout: 90000 });
        const counts = await wb.waitForProblems((c) => c.errors === 1, 'one error in Problems');
        assert.equal(counts.errors, 1);
        await wb.screenshot('bundled-server-squiggle');
    });
});
