import { afterEach, describe, expect, it } from 'vitest';
import { applyTheme } from './theme.ts';

describe('applyTheme', () => {
  afterEach(() => {
    document.head.innerHTML = '';
    document.documentElement.className = '';
    document.documentElement.removeAttribute('style');
  });

  function pageAsIndexHtmlPaintsIt() {
    document.documentElement.className = 'dark';
    document.documentElement.style.colorScheme = 'dark';
    document.head.innerHTML =
      '<meta name="color-scheme" content="dark"><meta name="theme-color" content="#0a0a0a">';
  }

  const meta = (name: string) =>
    document.querySelector(`meta[name="${name}"]`)?.getAttribute('content');

  it('takes the dark class and color-scheme off for Light, and puts them back', () => {
    pageAsIndexHtmlPaintsIt();
    const html = document.documentElement;

    applyTheme('light');
    expect(html).not.toHaveClass('dark');
    expect(html.style.colorScheme).toBe('light');
    expect(meta('color-scheme')).toBe('light');
    expect(meta('theme-color')).toBe('#ffffff');

    applyTheme('dark');
    expect(html).toHaveClass('dark');
    expect(html.style.colorScheme).toBe('dark');
    expect(meta('color-scheme')).toBe('dark');
    expect(meta('theme-color')).toBe('#0a0a0a');
  });

  it('renders System as dark, as the brief forces', () => {
    document.documentElement.className = '';
    applyTheme('system');
    expect(document.documentElement).toHaveClass('dark');
    expect(document.documentElement.style.colorScheme).toBe('dark');
  });
});
