// The tags feature's public surface; other modules import from here, never from its internals.
export { tagKeys, useTagsQuery } from './api.ts';
export { BatchTagMenus } from './components/batch-tag-menus.tsx';
export { TagEditor } from './components/tag-editor.tsx';
export { TagFilterMenu } from './components/tag-filter-menu.tsx';
