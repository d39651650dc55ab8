import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLocalStorage } from './local.ts';
import { storageSuite } from './storage-suite.ts';

storageSuite(
  'local disk',
  async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'upshot-storage-'));
    const storage = createLocalStorage(dir);
    return {
      storage,
      // A whole-object write in flight is a .part file in the temporary folder.
      inFlightWrites: async () =>
        (await fsp.readdir(storage.tmpDir)).filter((n) => n.endsWith('.part')).length,
      // A multipart upload is one file, named after its id.
      multipartUploads: () => fsp.readdir(path.join(storage.tmpDir, 'multipart')),
      cleanup: () => fsp.rm(dir, { recursive: true, force: true }),
    };
  },
  // The local listing is not paged; any number exercises it.
  { localFiles: true, listPageSize: 3, presignedUrls: false },
);

describe('local disk: check', () => {
  // A volume that is not mounted, or a files directory removed by hand: every key would read
  // as missing, so the store is not in order (readiness answers 503 naming it).
  it('rejects once the files directory is gone, and once it is a file', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'upshot-storage-'));
    try {
      const storage = createLocalStorage(dir);
      await expect(storage.check()).resolves.toBeUndefined();
      await fsp.rm(storage.root, { recursive: true });
      await expect(storage.check()).rejects.toMatchObject({ code: 'ENOENT' });
      await fsp.writeFile(storage.root, '');
      await expect(storage.check()).rejects.toThrow('is not a directory');
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});
