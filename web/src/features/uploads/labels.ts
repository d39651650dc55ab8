import type { FileType, Sort } from '@upshot/contract';

export const FILE_TYPE_LABELS: Record<FileType | '', string> = {
  '': 'All Files',
  images: 'Images',
  videos: 'Videos',
  documents: 'Documents',
  archives: 'Archives',
};

export const SORT_LABELS: Record<Sort, string> = {
  newest: 'Newest',
  oldest: 'Oldest',
  largest: 'Largest',
  smallest: 'Smallest',
  'most-viewed': 'Most Viewed',
};
