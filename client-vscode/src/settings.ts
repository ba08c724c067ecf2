/**
 * The extension's settings, read and validated in one place.
 *
 * Pure (no `vscode` import) so that the rules about defaults, wrong values and
 * which change needs a server restart are unit-tested without an editor. A
 * wrong value never fails silently: it falls back to the default and yields a
 * `SettingProblem` that names the setting and says how to fix it.
 */

export const SECTION = 'torchplace';

export type ImportStrategy = 'fromEnvironment' | 'useBundled';
export type NotificationLevel = 'off' | 'onError' | 'onWarning' | 'always';
export type SimulateGpu = 'auto' | 'on' | 'off';
export type SeverityName = 'error' | 'warning' | 'information' | 'hint';
export type DiagnosticMode = 'openFiles' | 'workspace';

export interface ProbeSettings {
    timeout: number;
    simulateGpu: SimulateGpu;
    existingKernel: string;
    args: string[];
}

export interface TorchplaceSettings {
    enable: boolean;
    select: string[];
    ignore: string[];
    severity: Record<string, SeverityName>;
    extraDeviceNames: string[];
    interpreter: string[];
    importStrategy: ImportStrategy;
    showNotifications: NotificationLevel;
    /** Set by the user, or undefined: then off while Pylance or Pyright reports syntax errors. */
    reportSyntaxErrors: boolean | undefined;
    diagnosticMode: DiagnosticMode;
    probe: ProbeSettings;
}

/** What the settings' defaults depend on, besides the settings. */
export interface SettingsEnvironment {
    /** Pylance or Pyright is active: it reports syntax errors itself. */
    otherParserActive: boolean;
}

/** A setting whose value was unusable; `key` is the full name, e.g. `torchplace.importStrategy`. */
export interface SettingProblem {
    key: string;
    message: string;
}

export const DEFAULT_SETTINGS: TorchplaceSettings = Object.freeze({
    enable: true,
    select: [],
    ignore: [],
    severity: {},
    extraDeviceNames: [],
    interpreter: [],
    importStrategy: 'fromEnvironment',
    showNotifications: 'onError',
    reportSyntaxErrors: undefined,
    diagnosticMode: 'openFiles',
    probe: Object.freeze({ timeout: 60, simulateGpu: 'auto', existingKernel: '', args: [] }),
}) as TorchplaceSettings;

/** What `${...}` variables in path settings expand to. */
export interface SubstitutionContext {
    workspaceFolder?: string;
    userHome?: string;
    env?: Record<string, string | undefined>;
}

const SEVERITY_ALIASES: Record<string, SeverityName> = {
    error: 'error',
    warning: 'warning',
    warn: 'warning',
    information: 'information',
    info: 'information',
    hint: 'hint',
};

/** A rule code (`TP101`), prefix (`TP1`), `ALL`, or a rule name (`mixed-devices`). */
const RULE_SELECTOR = /^(ALL|[A-Za-z]{1,4}\d{0,4}|[a-z][a-z0-9]*(-[a-z0-9]+)*)$/;

/**
 * Reads every setting through `get` (a `WorkspaceConfiguration.get` bound to
 * the `torchplace` section) and validates it.
 */
export function readSettings(
    get: (key: string) => unknown,
    context: SubstitutionContext = {},
): { settings: TorchplaceSettings; problems: SettingProblem[] } {
    const problems: SettingProblem[] = [];
    const d = DEFAULT_SETTINGS;
    const complain = (key: string, message: string) => problems.push({ key: `${SECTION}.${key}`, message });

    const settings: TorchplaceSettings = {
        enable: readBoolean(get('enable'), d.enable, 'enable', complain),
        select: readSelectors(get('select'), 'select', complain),
        ignore: readSelectors(get('ignore'), 'ignore', complain),
        severity: readSeverity(get('severity'), complain),
        extraDeviceNames: readIdentifiers(get('extraDeviceNames'), 'extraDeviceNames', complain),
        interpreter: readStringList(get('interpreter'), 'interpreter', complain).map((p) => substitute(p, context)),
        importStrategy: readEnum(get('importStrategy'), ['fromEnvironment', 'useBundled'], d.importStrategy, 'importStrategy', complain),
        showNotifications: readEnum(
            get('showNotifications'),
            ['off', 'onError', 'onWarning', 'always'],
            d.showNotifications,
            'showNotifications',
            complain,
        ),
        reportSyntaxErrors: get('reportSyntaxErrors') === undefined ? undefined : readBoolean(get('reportSyntaxErrors'), true, 'reportSyntaxErrors', complain),
        diagnosticMode: readEnum(get('diagnosticMode'), ['openFiles', 'workspace'], d.diagnosticMode, 'diagnosticMode', complain),
        probe: {
            timeout: readTimeout(get('probe.timeout'), complain),
            simulateGpu: readEnum(get('probe.simulateGpu'), ['auto', 'on', 'off'], d.probe.simulateGpu, 'probe.simulateGpu', complain),
            existingKernel: substitute(readString(get('probe.existingKernel'), 'probe.existingKernel', complain), context),
            args: readStringList(get('probe.args'), 'probe.args', complain).map((a) => substitute(a, context)),
        },
    };
    return { settings, problems };
}

/**
 * The object the server receives, in `initializationOptions` and as the
 * answer to `workspace/configuration` for section `torchplace`: only the keys
 * the server understands.
 */
export function serverSettings(
    settings: TorchplaceSettings,
    environment: SettingsEnvironment = { otherParserActive: false },
): Record<string, unknown> {
    const out: Record<string, unknown> = {
        enable: settings.enable,
        select: settings.select,
        ignore: settings.ignore,
        severity: settings.severity,
        extraDeviceNames: settings.extraDeviceNames,
        showNotifications: settings.showNotifications,
        reportSyntaxErrors: settings.reportSyntaxErrors ?? !environment.otherParserActive,
        diagnosticMode: settings.diagnosticMode,
    };
    // The probe runs inside the server. Its settings are sent once changed from
    // the defaults (which the probe shares), so a server that does not know
    // them yet says so instead of silently ignoring them.
    if (!sameJson(settings.probe, DEFAULT_SETTINGS.probe)) {
        out.probe = { ...settings.probe };
    }
    return out;
}

/** What a settings change requires of the running server. */
export type ChangeEffect = 'none' | 'reconfigure' | 'restart' | 'start' | 'stop';

export function changeEffect(before: TorchplaceSettings, after: TorchplaceSettings): ChangeEffect {
    if (before.enable !== after.enable) {
        return after.enable ? 'start' : 'stop';
    }
    if (!after.enable) {
        return 'none';
    }
    if (!sameJson(before.interpreter, after.interpreter) || before.importStrategy !== after.importStrategy) {
        return 'restart';
    }
    if (!sameJson(serverSettings(before), serverSettings(after))) {
        return 'reconfigure';
    }
    return 'none';
}

/** One message for all the problems of a settings change: each key, what is wrong, the value used instead. */
export function problemsMessage(problems: readonly SettingProblem[]): string {
    const count = problems.length === 1 ? '1 setting has a wrong value' : `${problems.length} settings have wrong values`;
    return `${count}: ${problems.map((p) => `${p.key} ${p.message}`).join(' ')}`;
}

/** Expands `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and a leading `~`. */
export function substitute(value: string, context: SubstitutionContext): string {
    let out = value.replace(/\$\{(workspaceFolder|userHome|env:([A-Za-z_][A-Za-z0-9_]*))\}/g, (whole, name: string, envName?: string) => {
        if (envName !== undefined) {
            return context.env?.[envName] ?? '';
        }
        const replacement = name === 'workspaceFolder' ? context.workspaceFolder : context.userHome;
        return replacement ?? whole;
    });
    if (context.userHome && (out === '~' || out.startsWith('~/'))) {
        out = context.userHome + out.slice(1);
    }
    return out;
}

function sameJson(a: unknown, b: unknown): boolean {
    return JSON.stringify(a) === JSON.stringify(b);
}

type Complain = (key: string, message: string) => void;

function describe(value: unknown): string {
    return JSON.stringify(value) ?? String(value);
}

function readBoolean(value: unknown, fallback: boolean, key: string, complain: Complain): boolean {
    if (value === undefined || value === null) {
        return fallback;
    }
    if (typeof value !== 'boolean') {
        complain(key, `must be true or false, got ${describe(value)}; using ${fallback}.`);
        return fallback;
    }
    return value;
}

function readString(value: unknown, key: string, complain: Complain): string {
    if (value === undefined || value === null) {
        return '';
    }
    if (typeof value !== 'string') {
        complain(key, `must be a string, got ${describe(value)}; ignoring it.`);
        return '';
    }
    return value.trim();
}

function readStringList(value: unknown, key: string, complain: Complain): string[] {
    if (value === undefined || value === null) {
        return [];
    }
    if (typeof value === 'string') {
        // A common slip: `"torchplace.interpreter": "/usr/bin/python3"` instead of a list.
        return value.trim() ? [value.trim()] : [];
    }
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
        complain(key, `must be a list of strings, got ${describe(value)}; ignoring it.`);
        return [];
    }
    return value.map((v: string) => v.trim()).filter((v) => v.length > 0);
}

function readSelectors(value: unknown, key: string, complain: Complain): string[] {
    const list = readStringList(value, key, complain);
    const bad = list.filter((v) => !RULE_SELECTOR.test(v));
    if (bad.length > 0) {
        complain(key, `has entries that are not rule codes or names: ${bad.map(describe).join(', ')} (expected e.g. "TP101", "TP2" or "mixed-devices"); ignoring them.`);
    }
    return list.filter((v) => RULE_SELECTOR.test(v)).map((v) => (/^[a-z]+\d/i.test(v) && !v.includes('-') ? v.toUpperCase() : v));
}

function readIdentifiers(value: unknown, key: string, complain: Complain): string[] {
    const list = readStringList(value, key, complain);
    const identifier = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
    const bad = list.filter((v) => !identifier.test(v));
    if (bad.length > 0) {
        complain(key, `has entries that are not Python names: ${bad.map(describe).join(', ')}; ignoring them.`);
    }
    return list.filter((v) => identifier.test(v));
}

function readSeverity(value: unknown, complain: Complain): Record<string, SeverityName> {
    if (value === undefined || value === null) {
        return {};
    }
    if (typeof value !== 'object' || Array.isArray(value)) {
        complain('severity', `must map rule codes to "error", "warning", "information" or "hint", got ${describe(value)}; ignoring it.`);
        return {};
    }
    const out: Record<string, SeverityName> = {};
    for (const [code, level] of Object.entries(value as Record<string, unknown>)) {
        const parsed = typeof level === 'string' ? SEVERITY_ALIASES[level.trim().toLowerCase()] : undefined;
        if (!RULE_SELECTOR.test(code) || parsed === undefined) {
            complain('severity', `entry ${describe(code)}: ${describe(level)} is not valid (expected a rule code mapped to "error", "warning", "information" or "hint"); ignoring it.`);
            continue;
        }
        out[/-/.test(code) ? code : code.toUpperCase()] = parsed;
    }
    return out;
}

function readEnum<T extends string>(value: unknown, allowed: readonly T[], fallback: T, key: string, complain: Complain): T {
    if (value === undefined || value === null) {
        return fallback;
    }
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) {
        return value as T;
    }
    complain(key, `must be one of ${allowed.map((a) => `"${a}"`).join(', ')}, got ${describe(value)}; using "${fallback}".`);
    return fallback;
}

function readTimeout(value: unknown, complain: Complain): number {
    const fallback = DEFAULT_SETTINGS.probe.timeout;
    if (value === undefined || value === null) {
        return fallback;
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
        complain('probe.timeout', `must be a positive number of seconds, got ${describe(value)}; using ${fallback}.`);
        return fallback;
    }
    return value;
}
