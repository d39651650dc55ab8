/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Overrides the API base path (default `/api`), e.g. when the API lives on another origin. */
  readonly VITE_API_BASE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
