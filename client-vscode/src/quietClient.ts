import { LanguageClient } from 'vscode-languageclient/node';

/**
 * The language client shows its own error toasts for start-up and restart
 * failures ("couldn't create connection to server", "write EPIPE"). This
 * extension reports those itself with the fix, so they go to the log only.
 */
export class QuietLanguageClient extends LanguageClient {
    private static readonly LIFECYCLE = /couldn't create connection|Restarting server failed|Connection to server got closed|Server initialization failed|connection to server is erroring/;

    override error(message: string, data?: unknown, showNotification?: boolean | 'force'): void {
        super.error(message, data, QuietLanguageClient.LIFECYCLE.test(message) ? false : showNotification);
    }
}
