import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
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
      cleanup: () => fsp.rm(dir, { recursive: true, force: true }),
    };
  },
  // The local listing is not paged; any number exercises it.
  { localFiles: true, listPageSize: 3, presignedUrls: false },
);
