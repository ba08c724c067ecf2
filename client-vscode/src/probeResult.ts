/**
 * The result of `torchplace.probeCell` (schema `torchplace-probe/1`, the
 * probe's `ProbeResult.to_dict()`), read defensively into what the client
 * shows: the device the cell ran on, its variables, its transfers and its
 * error. The server publishes the same facts as inlay hints and diagnostics;
 * this feeds the probe view and the status item. Lines here are 0-based
 * (the probe's JSON is 1-based). Pure, unit-tested.
 */

export interface ProbeVariable {
    name: string;
    description: string;
    /** 0-based line where the probe last saw the variable, if it did. */
    line?: number;
    onAccelerator: boolean;
}

export interface ProbeTransfer {
    line?: number;
    text: string;
}

export interface ProbeError {
    line?: number;
    message: string;
    /** Not the error itself: its root cause, or a cell above that raised (no ✗ hint on its line). */
    context?: boolean;
}

/** `root cause: line 5: mat1 was created on cpu here` (the probe's `error.root_cause`). */
function rootCause(cause: Json, probedCell: number | undefined): ProbeError {
    const line = num(cause.line) ?? 0;
    const file = str(cause.file);
    const where = `line ${line}${file ? ` of ${file}` : ''}`;
    const operand = str(cause.operand) ?? 'the tensor';
    const device = str(cause.device) ?? '?';
    const kind = str(cause.kind);
    const what =
        kind === 'move-discarded'
            ? `this move to ${str(cause.moved_to) ?? '?'} returned a copy that was not used; ${operand} stayed on ${device}`
            : kind === 'moved'
              ? `${operand} was moved to ${device} here`
              : kind === 'hidden-attribute'
                ? `${operand} is held in \`self.${str(cause.attribute) ?? '?'}\` of ${str(cause.owner) ?? '?'}, which Module.to() does not move; it stayed on ${device}`
                : `${operand} was created on ${device} here`;
    const sameCell = !file && (num(cause.cell) === undefined || num(cause.cell) === probedCell || probedCell === undefined);
    return { line: sameCell ? line - 1 : undefined, message: `root cause: ${where}: ${what}`, context: true };
}

/** The text shown after a line: `→ cuda:0 float32 [32, 10]  host→device 4.0 MB  sync .item() ×50`. */
export interface LineHint {
    line: number;
    text: string;
    isError: boolean;
}

export interface ProbeSummary {
    ran: boolean;
    /** ok | error | timeout | kernel-died | error-above | cancelled | setup-error, or why it did not run. */
    status: string;
    /** e.g. "cuda:0 — NVIDIA H100", "simulated GPU", "cpu". */
    device?: string;
    variables: ProbeVariable[];
    transfers: ProbeTransfer[];
    errors: ProbeError[];
    notes: string[];
    hints: LineHint[];
    /** 0-based first and last line of the probed cell, when the probe says. */
    cellLines?: { first: number; last: number };
}

type Json = Record<string, unknown>;

const ARROWS: Record<string, string> = {
    host_to_device: 'host→device',
    device_to_host: 'device→host',
    device_to_device: 'device→device',
};

function isObject(value: unknown): value is Json {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
    return typeof value === 'string' ? value : undefined;
}

function num(value: unknown): number | undefined {
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** 1-based line from the probe to 0-based, undefined when absent or nonsense. */
function zeroBased(value: unknown): number | undefined {
    const n = num(value);
    return n !== undefined && n >= 1 ? n - 1 : undefined;
}

/** The probe's decimal byte units ("4.0 MB"), matching its hints and CLI. */
export function formatBytes(bytes: number): string {
    let value = bytes;
    for (const unit of ['B', 'KB', 'MB', 'GB']) {
        if (value < 1000 || unit === 'GB') {
            return unit === 'B' ? `${Math.trunc(value)} B` : `${value.toFixed(1)} ${unit}`;
        }
        value /= 1000;
    }
    return `${bytes} B`;
}

/** `cuda:0 float32 [32, 10]`, `Net on cuda:0`, `dict: a→cuda:0, b→cpu`. */
export function describeValue(info: unknown): string {
    if (!isObject(info)) {
        return String(info);
    }
    switch (info.kind) {
        case 'tensor':
            return `${str(info.device) ?? '?'} ${str(info.dtype) ?? '?'} [${Array.isArray(info.shape) ? info.shape.join(', ') : '?'}]`;
        case 'module': {
            const devices = Array.isArray(info.devices) ? info.devices.map(String) : [];
            const where = str(info.split) ?? (devices.length > 0 ? `on ${devices.join(', ')}` : 'with no parameters');
            return `${str(info.type) ?? 'Module'} ${where}`;
        }
        case 'device':
            return `device ${str(info.device) ?? '?'}`;
        case 'dict':
        case 'list':
        case 'tuple': {
            const items = isObject(info.items) ? Object.entries(info.items) : [];
            return `${info.kind}: ${items.map(([k, v]) => `${k}→${isObject(v) ? str(v.device) : '?'}`).join(', ')}`;
        }
        default:
            return JSON.stringify(info);
    }
}

function onAccelerator(info: unknown): boolean {
    if (!isObject(info)) {
        return false;
    }
    const devices = [info.device, ...(Array.isArray(info.devices) ? info.devices : [])].filter((d): d is string => typeof d === 'string');
    return devices.some((d) => d !== 'cpu' && d !== 'meta');
}

/** A human label for where the probe ran: the simulated GPU, a real GPU's name, or the CPU. */
export function deviceLabel(raw: Json): string | undefined {
    if (raw.simulated === true) {
        return 'simulated GPU';
    }
    const device = str(raw.device);
    if (!device) {
        return undefined;
    }
    if (device === 'cpu' || device.startsWith('cuda') || device.startsWith('mps')) {
        return device;
    }
    return device === 'simulated' ? 'simulated GPU' : `cuda:0 — ${device}`;
}

function lineLabel(rec: Json): string {
    const parts: string[] = [];
    const values = isObject(rec.values) ? Object.entries(rec.values) : [];
    if (values.length === 1) {
        parts.push(`→ ${describeValue(values[0][1])}`);
    } else if (values.length > 1) {
        parts.push(`→ ${values.map(([k, v]) => `${k}: ${describeValue(v)}`).join('; ')}`);
    }
    for (const t of Array.isArray(rec.transfers) ? rec.transfers.filter(isObject) : []) {
        const count = num(t.count) ?? 1;
        parts.push(`${ARROWS[str(t.kind) ?? ''] ?? str(t.kind) ?? 'copy'} ${formatBytes(num(t.bytes) ?? 0)}${count > 1 ? ` ×${count}` : ''}`);
    }
    for (const sync of Array.isArray(rec.syncs) ? rec.syncs.filter(isObject) : []) {
        const count = num(sync.count) ?? 1;
        parts.push(`sync ${str(sync.kind) ?? ''}${count > 1 ? ` ×${count}` : ''}`);
    }
    return parts.join('  ');
}

/**
 * Reads the command's answer: `{ran: true, result: ProbeResult}`, a bare
 * ProbeResult, or `{ran: false, reason}` when the probe did not run.
 */
export function parseProbeResult(answer: unknown): ProbeSummary {
    const empty = { variables: [], transfers: [], errors: [], notes: [], hints: [] };
    if (!isObject(answer)) {
        return { ran: false, status: 'the server returned no result', ...empty };
    }
    if (answer.ran === false) {
        return { ran: false, status: str(answer.reason) ?? 'not run', ...empty };
    }
    const raw = isObject(answer.result) ? answer.result : answer;
    const lines = (Array.isArray(raw.lines) ? raw.lines : []).filter(isObject);
    const lastSeen = new Map<string, number>();
    const transfers: ProbeTransfer[] = [];
    for (const rec of lines) {
        const line = zeroBased(rec.line);
        if (isObject(rec.values) && line !== undefined) {
            Object.keys(rec.values).forEach((name) => lastSeen.set(name, line));
        }
        for (const t of Array.isArray(rec.transfers) ? rec.transfers.filter(isObject) : []) {
            const kind = str(t.kind) ?? '';
            const count = num(t.count) ?? 1;
            const bytes = num(t.bytes);
            const route = `${str(t.source) ?? '?'} → ${str(t.target) ?? '?'}`;
            transfers.push({
                line,
                text: `${ARROWS[kind] ?? kind} ${route}${bytes !== undefined ? ` ${formatBytes(bytes)}` : ''}${count > 1 ? ` ×${count}` : ''}`.trim(),
            });
        }
    }
    const variables = isObject(raw.variables)
        ? Object.entries(raw.variables).map(([name, info]) => ({
              name,
              description: describeValue(info),
              line: lastSeen.get(name),
              onAccelerator: onAccelerator(info),
          }))
        : [];
    const errors: ProbeError[] = [];
    if (isObject(raw.error)) {
        const type = str(raw.error.type);
        const message = str(raw.error.message) ?? '';
        errors.push({ line: zeroBased(raw.error.line), message: type ? `${type}: ${message}` : message });
        const cause = isObject(raw.error.root_cause) ? raw.error.root_cause : undefined;
        if (cause && num(cause.line) !== undefined) {
            errors.push(rootCause(cause, num(raw.cell)));
        }
    }
    // Cells above that raised: in a `# %%` file their lines are the document's (the probed cell then
    // starts below line 1); in a notebook they are another cell's, so the view cannot jump there.
    const inOneDocument = (num(raw.first_line) ?? 1) > 1;
    for (const above of Array.isArray(raw.above_errors) ? raw.above_errors.filter(isObject) : []) {
        errors.push({
            line: inOneDocument ? zeroBased(above.line) : undefined,
            message: `cell ${(num(above.cell) ?? 0) + 1} above: ${str(above.type) ?? 'Error'}: ${str(above.message) ?? ''}`,
            context: true,
        });
    }
    const hints: LineHint[] = [];
    for (const rec of lines) {
        const line = zeroBased(rec.line);
        const text = lineLabel(rec);
        if (line !== undefined && text) {
            hints.push({ line, text, isError: false });
        }
    }
    for (const error of errors) {
        if (error.line !== undefined && !error.context) {
            const existing = hints.find((h) => h.line === error.line);
            const text = `✗ ${error.message}`;
            if (existing) {
                existing.text = `${existing.text}  ${text}`;
                existing.isError = true;
            } else {
                hints.push({ line: error.line, text, isError: true });
            }
        }
    }
    hints.sort((a, b) => a.line - b.line);
    const first = zeroBased(raw.first_line);
    const last = zeroBased(raw.last_line);
    return {
        ran: true,
        status: str(raw.status) ?? 'ok',
        device: deviceLabel(raw),
        variables,
        transfers,
        errors,
        notes: (Array.isArray(raw.notes) ? raw.notes : []).filter((n): n is string => typeof n === 'string'),
        hints,
        cellLines: first !== undefined && last !== undefined ? { first, last } : undefined,
    };
}
