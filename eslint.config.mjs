// ESLint for the VS Code extension (client-vscode/): typescript-eslint's recommended rules.
import tseslint from 'typescript-eslint';

export default tseslint.config(
    { ignores: ['client-vscode/out/**', 'node_modules/**', '.cache/**', '.venv/**', 'test-artifacts/**'] },
    {
        files: ['client-vscode/**/*.ts'],
        extends: [tseslint.configs.recommended],
        rules: {
            eqeqeq: 'error',
            curly: 'error',
            'no-throw-literal': 'error',
            '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
        },
    },
);
