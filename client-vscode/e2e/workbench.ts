/**
 * What a person does in VS Code, done with the keyboard and the mouse through
 * playwright: open a file, go to a line, run a command from the palette, read
 * the editor's text, the Problems count and notifications, take screenshots.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';

export class Workbench {
    private shot = 0;

    constructor(
        readonly page: Page,
        private readonly artifacts: string,
    ) {
        fs.mkdirSync(artifacts, { recursive: true });
    }

    /** Saves a numbered screenshot and returns its path. */
    async screenshot(name: string, keepPointer = false): Promise<string> {
        this.shot++;
        const file = path.join(this.artifacts, `${String(this.shot).padStart(2, '0')}-${name}.png`);
        if (!keepPointer) {
            await this.page.mouse.move(1000, 5); // an empty spot of the title bar: no stray hover
            await this.page.waitForTimeout(200); // the hover fades out
        }
        await this.page.screenshot({ path: file });
        return file;
    }

    async waitForWorkbench(): Promise<void> {
        await this.page.locator('.monaco-workbench').waitFor({ timeout: 90000 });
        await this.page.locator('.explorer-folders-view, .explorer-viewlet').first().waitFor({ timeout: 60000 });
    }

    /**
     * Quick Open (Ctrl+P), type the name, pick it.  A file written a moment ago may not be listed
     * yet (code-server's file search answers late on a busy machine): the query is asked again
     * until it is, and the pick once more if the editor did not come up.
     */
    async openFile(name: string, timeoutMs = 90000): Promise<void> {
        await this.dismissNotifications();
        const tab = this.page.locator(`.tab.active[data-resource-name="${name}"], .tab.active[aria-label^="${name}"]`).first();
        const deadline = Date.now() + timeoutMs;
        for (let picked = 0; ;) {
            await this.page.keyboard.press('Control+P');
            const input = this.page.locator('.quick-input-widget input');
            await input.waitFor({ state: 'visible' });
            await input.fill(name);
            const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
            const listed = await row.waitFor({ timeout: 10000 }).then(() => true, () => false);
            if (listed) {
                await row.click();
                picked++;
                if (await tab.waitFor({ timeout: 10000 }).then(() => true, () => false)) {
                    return;
                }
            }
            if (picked >= 2 || Date.now() > deadline) {
                throw new Error(`could not open ${name} from Quick Open (${listed ? 'picked, no editor came up' : 'not listed'})`);
            }
            await this.page.keyboard.press('Escape');
            await input.waitFor({ state: 'hidden' });
        }
    }

    /** The command palette (F1): type the title, pick the matching entry. */
    async runCommand(title: string): Promise<void> {
        const input = this.page.locator('.quick-input-widget input');
        const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
        const within = (wait: Promise<void>) => wait.then(() => true, () => false);
        // F1 pressed while a webview (the probe's panel) has the focus opens nothing, and a key pressed
        // on the page may go to the webview: until the palette has taken the command (it closes on
        // Enter; while it stays open the command has not run), open it and accept again.
        await this.waitUntil(async () => {
            if (!(await input.isVisible())) {
                await this.page.keyboard.press('F1');
                if (!(await within(input.waitFor({ state: 'visible', timeout: 5000 })))) {
                    return false;
                }
            }
            // (each action bounded: the palette may close under it, and then it is opened again)
            if (!(await within(input.fill(`>${title}`, { timeout: 5000 })))) {
                return false;
            }
            if (!(await within(row.waitFor({ timeout: 10000 })))) {
                return false;
            }
            if (!(await within(input.press('Enter', { timeout: 5000 })))) {
                return false;
            }
            return within(input.waitFor({ state: 'hidden', timeout: 5000 }));
        }, `the palette to run "${title}"`, 60000);
    }

    /** Ctrl+G, line number, Enter: the cursor is at the start of that 1-based line. */
    async goToLine(line: number): Promise<void> {
        await this.page.keyboard.press('Control+G');
        const input = this.page.locator('.quick-input-widget input');
        await input.waitFor({ state: 'visible' });
        // Enter goes to the input itself (focused first): the probe's webview may take the focus
        // between typing and Enter, and then the picker stays open. Until it closes, type and accept again.
        const deadline = Date.now() + 30000;
        for (;;) {
            await input.fill(`:${line}`);
            await input.press('Enter');
            try {
                await input.waitFor({ state: 'hidden', timeout: 5000 });
                return;
            } catch (error) {
                if (!(await input.isVisible())) {
                    return; // closed just after the wait gave up
                }
                if (Date.now() > deadline) {
                    throw error;
                }
            }
        }
    }

    /** The active text editor (in a notebook: the focused cell's editor). */
    activeEditor(): Locator {
        return this.page.locator('.editor-group-container.active .monaco-editor').first();
    }

    /** The text of the visible lines of the active editor. */
    async editorText(editor: Locator = this.activeEditor()): Promise<string> {
        const lines = await editor.locator('.view-lines .view-line').evaluateAll((nodes) =>
            nodes
                .map((n) => ({ top: parseFloat((n as unknown as { style: { top: string } }).style.top || '0'), text: (n.textContent ?? '').replace(/\u00a0/g, ' ') }))
                .sort((a, b) => a.top - b.top)
                .map((l) => l.text),
        );
        return lines.join('\n');
    }

    /** Text that decorations add after lines (rendered as CSS `::after` content), in line order. */
    async afterLineTexts(editor: Locator = this.activeEditor()): Promise<string[]> {
        return editor.locator('.view-lines .view-line').evaluateAll((nodes) => {
            type El = { style: { top: string }; querySelectorAll(s: string): ArrayLike<unknown> };
            const view = globalThis as unknown as { getComputedStyle(e: unknown, pseudo: string): { content: string } };
            return (nodes as unknown as El[])
                .map((n) => ({
                    top: parseFloat(n.style.top || '0'),
                    text: Array.from(n.querySelectorAll('span'))
                        .map((span) => view.getComputedStyle(span, '::after').content)
                        .filter((c) => c && c !== 'none' && c !== 'normal' && c !== '""')
                        .map((c) => c.replace(/^"|"$/g, ''))
                        .join(' '),
                }))
                .sort((a, b) => a.top - b.top)
                .map((l) => l.text);
        });
    }

    /** Waits until `predicate` holds for the active editor's text. */
    async waitForText(predicate: (text: string) => boolean, what: string, timeoutMs = 30000): Promise<string> {
        const deadline = Date.now() + timeoutMs;
        let text = '';
        while (Date.now() < deadline) {
            text = await this.editorText();
            if (predicate(text)) {
                return text;
            }
            await this.page.waitForTimeout(250);
        }
        throw new Error(`timed out waiting for ${what}; editor text:\n${text}`);
    }

    /** Errors and warnings as the status bar's Problems item counts them. */
    async problemCounts(): Promise<{ errors: number; warnings: number }> {
        const label = (await this.page.locator('[id="status.problems"] a, [id="status.problems"]').first().getAttribute('aria-label')) ?? '';
        const errors = /(\d+)\s+error/i.exec(label) ?? /Errors?:\s*(\d+)/i.exec(label);
        const warnings = /(\d+)\s+warning/i.exec(label) ?? /Warnings?:\s*(\d+)/i.exec(label);
        const none = /no problems/i.test(label);
        return { errors: none ? 0 : Number(errors?.[1] ?? 0), warnings: none ? 0 : Number(warnings?.[1] ?? 0) };
    }

    async waitForProblems(check: (c: { errors: number; warnings: number }) => boolean, what: string, timeoutMs = 30000): Promise<{ errors: number; warnings: number }> {
        const deadline = Date.now() + timeoutMs;
        let counts = { errors: -1, warnings: -1 };
        while (Date.now() < deadline) {
            counts = await this.problemCounts();
            if (check(counts)) {
                return counts;
            }
            await this.page.waitForTimeout(250);
        }
        throw new Error(`timed out waiting for ${what}; Problems: ${JSON.stringify(counts)}`);
    }

    async waitUntil(condition: () => Promise<boolean>, what: string, timeoutMs = 30000): Promise<void> {
        const deadline = Date.now() + timeoutMs;
        while (!(await condition())) {
            if (Date.now() > deadline) {
                throw new Error(`timed out waiting for ${what}`);
            }
            await this.page.waitForTimeout(250);
        }
    }

    async waitForNoSquiggles(what: string, timeoutMs = 30000): Promise<void> {
        const squiggles = this.activeEditor().locator('.squiggly-error, .squiggly-warning');
        const deadline = Date.now() + timeoutMs;
        while ((await squiggles.count()) > 0) {
            if (Date.now() > deadline) {
                throw new Error(`squiggles remain ${what}`);
            }
            await this.page.waitForTimeout(250);
        }
    }

    /** Texts of the notification toasts on screen. */
    async notifications(): Promise<string[]> {
        return this.page.locator('.notification-toast .notification-list-item-message').allInnerTexts();
    }

    async waitForNotification(pattern: RegExp, timeoutMs = 30000): Promise<string> {
        const deadline = Date.now() + timeoutMs;
        while (Date.now() < deadline) {
            const found = (await this.notifications()).find((n) => pattern.test(n));
            if (found) {
                return found;
            }
            await this.page.waitForTimeout(250);
        }
        throw new Error(`no notification matching ${pattern}; shown: ${JSON.stringify(await this.notifications())}`);
    }

    /** The Problems panel's rows (resources and markers) as shown, filtered as a person types into its filter box. */
    async problemRows(filter = ''): Promise<string[]> {
        // The palette may run the row it had selected before its filter applied (a busy machine, or
        // focus in the probe's webview): ask again until the panel is really there.
        // Other views with a filter (Output, Debug Console) keep theirs in the page while hidden, and
        // the probe's view shares the panel: take the filter box on screen, with the Problems list.
        const panel = this.page.locator('.markers-panel');
        const box = this.page.locator('.viewpane-filter input:visible, .viewpane-filter textarea:visible').first();
        const shown = async (timeout: number) =>
            panel.waitFor({ timeout }).then(() => box.waitFor({ timeout }).then(() => true), () => false).catch(() => false);
        await this.waitUntil(async () => {
            if (await shown(500)) {
                return true;
            }
            await this.page.keyboard.press('Escape');
            await this.runCommand('View: Focus Problems');
            return shown(5000);
        }, 'the Problems panel and its filter box', 60000).catch(async (error: Error) => {
            throw new Error(`${error.message}; on screen: ${await this.filterBoxesOnScreen()}`);
        });
        if ((await box.inputValue().catch(() => filter)) !== filter) {
            await box.fill(filter);
        }
        // Only rows on screen: the list keeps recycled rows hidden in the page. A new filter applies
        // after a delay, and until then the rows of other files are listed: wait for it by the
        // resource rows ("N problems in file F of folder D"), which then all name a matching file.
        const rows = this.page.locator('.markers-panel .monaco-list-row:visible');
        if (filter) {
            const applied = () => rows.evaluateAll((els, wanted) => els.every((el) => {
                const label = el.getAttribute('aria-label') ?? '';
                return !/ problems in file /.test(label) || label.toLowerCase().includes(wanted);
            }), filter.toLowerCase());
            await this.waitUntil(applied, `the Problems filter "${filter}" applied`);
        }
        return rows.allInnerTexts();
    }

    /** The row labelled `label` of the code-action menu (Ctrl+.) at the cursor.  Ctrl+. pressed before
     * the line's code actions have come back shows nothing (the lightbulb comes later on a busy
     * machine): the menu is asked for again until it lists the action. */
    async codeAction(label: string): Promise<Locator> {
        const row = this.page.locator('.action-widget .monaco-list-row', { hasText: label }).first();
        await this.waitUntil(async () => {
            await this.page.keyboard.press('Control+.');
            if (await row.waitFor({ timeout: 5000 }).then(() => true, () => false)) {
                return true;
            }
            await this.page.keyboard.press('Escape');
            return false;
        }, `the code-action menu with "${label}"`, 60000);
        return row;
    }

    /** Where the page's filter boxes are and which panel view is active, for a failure message. */
    private async filterBoxesOnScreen(): Promise<string> {
        const boxes = await this.page.locator('.viewpane-filter').evaluateAll((els) => els.map((el) => {
            const r = (el as unknown as { getBoundingClientRect(): { x: number; y: number; width: number; height: number } }).getBoundingClientRect();
            return `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}x${Math.round(r.height)}`;
        }));
        const panel = await this.page.locator('.panel .composite-bar .action-item.checked').allInnerTexts().catch(() => []);
        const markers = await this.page.locator('.markers-panel').isVisible().catch(() => false);
        return `filter boxes [${boxes.join('; ')}], panel view ${JSON.stringify(panel)}, Problems list visible: ${markers}`;
    }

    async waitForProblemRows(check: (rows: string[]) => boolean, what: string, timeoutMs = 30000, filter = ''): Promise<string[]> {
        const deadline = Date.now() + timeoutMs;
        let rows: string[] = [];
        while (Date.now() < deadline) {
            rows = await this.problemRows(filter);
            if (check(rows)) {
                return rows;
            }
            await this.page.waitForTimeout(100);
        }
        throw new Error(`timed out waiting for ${what}; Problems: ${JSON.stringify(rows)}`);
    }

    /** Texts that decorations add after the labels of the Explorer's rows (badges), by row. */
    async explorerBadges(): Promise<Record<string, string>> {
        return this.page.locator('.explorer-folders-view .monaco-list-row').evaluateAll((rows) => {
            const view = globalThis as unknown as { getComputedStyle(e: unknown, pseudo: string): { content: string } };
            type El = { innerText: string; querySelectorAll(s: string): ArrayLike<unknown> };
            const out: Record<string, string> = {};
            for (const row of rows as unknown as El[]) {
                out[row.innerText.trim()] = Array.from(row.querySelectorAll('*'))
                    .map((e) => view.getComputedStyle(e, '::after').content)
                    .filter((c) => c && c !== 'none' && c !== 'normal' && c !== '""')
                    .join(' ');
            }
            return out;
        });
    }

    /** Moves the mouse onto the middle of `target` (no actionability checks: text layers cover squiggles). */
    async pointAt(target: Locator): Promise<void> {
        const box = await target.boundingBox();
        if (!box) {
            throw new Error('nothing to point at');
        }
        await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    }

    /**
     * The text in the editor's hover widget once it shows `complete`: the widget opens with the
     * parts it has (the Problems part) and adds the language server's answer when it arrives.
     */
    async hoverText(complete: RegExp): Promise<string> {
        const hover = this.page.locator('.monaco-hover:visible .monaco-hover-content, .monaco-hover-content:visible').first();
        let text = '';
        await this.waitUntil(async () => {
            text = await hover.innerText({ timeout: 2000 }).catch(() => '');
            return complete.test(text);
        }, `a hover showing ${complete}`);
        return text;
    }

    /**
     * Replaces the user settings the way a person pastes into settings.json:
     * "Preferences: Open User Settings (JSON)", select all, paste, save, close.
     * Returns the time the save was pressed.
     */
    async replaceUserSettings(settings: Record<string, unknown>): Promise<number> {
        await this.runCommand('Preferences: Open User Settings (JSON)');
        // VS Code 1.139 may open it in a modal editor rather than a tab.
        const found = this.page.locator('.monaco-editor', { hasText: 'workbench.startupEditor' }).last();
        await found.waitFor();
        // A handle, not a locator: the text it was found by scrolls out of sight below.
        const editor = (await found.elementHandle())!;
        await found.locator('.view-lines').click();
        await this.page.keyboard.press('Control+A');
        await this.page.keyboard.press('Delete');
        // One line: no auto-indent; then drop whatever auto-closing added after it.
        await this.page.keyboard.insertText(JSON.stringify(settings));
        await this.page.keyboard.press('Control+Shift+End');
        await this.page.keyboard.press('Delete');
        await this.page.keyboard.press('Control+S');
        const saved = Date.now();
        // Saved when the tab is no longer marked dirty.
        await this.page.locator('.tab.active.dirty').waitFor({ state: 'detached', timeout: 30000 }).catch(() => undefined);
        const save = this.page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Save$/ });
        for (const key of ['Control+W', 'Escape', 'Control+W']) {
            if (!(await editor.isVisible())) {
                break;
            }
            await this.page.keyboard.press(key);
            // Closed, or VS Code asks whether to save (the save had not landed): the answer is Save.
            await this.page
                .waitForFunction((e) => !(e as unknown as { isConnected: boolean }).isConnected || (e as unknown as { offsetParent: unknown }).offsetParent === null, editor, { timeout: 3000 })
                .catch(() => undefined);
            if (await save.isVisible()) {
                await save.click();
            }
        }
        if (await editor.isVisible()) {
            throw new Error('the settings editor did not close');
        }
        return saved;
    }

    /**
     * Replaces the remote (machine) settings, as "Preferences: Open Remote Settings (JSON)"
     * would save them; VS Code picks the file up by its watcher.  Returns the time of the write.
     */
    static replaceMachineSettings(file: string, settings: Record<string, unknown>): number {
        fs.writeFileSync(file, JSON.stringify(settings, null, 2));
        return Date.now();
    }

    /** Lines of the extension's own log so far (VS Code writes each output channel to a file). */
    static extensionLog(logsDir: string): string {
        const found: string[] = [];
        const walk = (dir: string) => {
            for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
                const full = path.join(dir, entry.name);
                if (entry.isDirectory()) {
                    walk(full);
                } else if (/torchplace.*\.log$/.test(entry.name)) {
                    found.push(fs.readFileSync(full, 'utf8'));
                }
            }
        };
        walk(logsDir);
        return found.join('\n');
    }

    /** When (ms since the epoch) the extension's log first showed `pattern` (its lines start with a local time). */
    static logTime(logsDir: string, pattern: RegExp): number | undefined {
        const line = Workbench.extensionLog(logsDir).split('\n').find((l) => pattern.test(l));
        const stamp = line && /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3})/.exec(line);
        return stamp ? new Date(`${stamp[1]}T${stamp[2]}`).getTime() : undefined;
    }

    /** A frame (webviews are frames within frames) whose page shows `text`. */
    async frameShowing(text: string): Promise<import('playwright-core').Frame | undefined> {
        for (const frame of this.page.frames()) {
            const shown = await frame.evaluate((t) => (globalThis as unknown as { document: { body?: { innerText: string } } }).document.body?.innerText.includes(t) ?? false, text).catch(() => false);
            if (shown) {
                return frame;
            }
        }
        return undefined;
    }

    async waitForLog(logsDir: string, pattern: RegExp, timeoutMs = 60000): Promise<void> {
        const deadline = Date.now() + timeoutMs;
        while (!pattern.test(Workbench.extensionLog(logsDir))) {
            if (Date.now() > deadline) {
                throw new Error(`the extension's log never showed ${pattern}`);
            }
            await this.page.waitForTimeout(200);
        }
    }

    /** Clears toasts so they do not cover what the next step looks at. */
    async dismissNotifications(): Promise<void> {
        if ((await this.page.locator('.notification-toast').count()) > 0) {
            await this.runCommand('Notifications: Clear All Notifications').catch(() => undefined);
        }
    }
}
