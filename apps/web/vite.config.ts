import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The API serves the built SPA from the same origin in production; in development the proxy
// keeps that single origin so the session cookie and the login marker behave the same way.
const API_ORIGIN = 'http://127.0.0.1:3000';
const API_PREFIXES = ['/api', '/public', '/lookup', '/service', '/health'];

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      output: {
        // Long-lived vendor chunks stay cached across releases of our own code.
        manualChunks: {
          react: ['react', 'react-dom'],
          router: ['react-router'],
          mantine: ['@mantine/core', '@mantine/hooks', '@mantine/notifications'],
          query: ['@tanstack/react-query'],
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, API_ORIGIN])),
  },
  preview: {
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, API_ORIGIN])),
  },
});
