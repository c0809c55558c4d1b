// The plugin before SvelteKit's: `.idl` imports compile in the client and the server build alike.
import { sveltekit } from '@sveltejs/kit/vite';
import idlRpc from 'unplugin-idl-rpc/vite';
import { defineConfig } from 'vite';

export default defineConfig({ plugins: [idlRpc({ openapi: { serverUrl: '/rpc' } }), sveltekit()] });
