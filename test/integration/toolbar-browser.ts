// Real headless Chromium on the dev server's pages as the toolbar's action tests drive it: Debian's chromium with CI's flags,
// the dev server's full-page reloads dropped (the panel must move by the toolbar channel alone), and the panel's token read
// off that channel as the page receives it.
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export interface ToolbarBrowser {
  browser: Browser;
  page: Page;
  /** The token the dev server sent the panel, once the page has received it. */
  token(): string | undefined;
}

export async function openToolbarBrowser(): Promise<ToolbarBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  let token: string | undefined;
  await page.routeWebSocket(/.*/, (socket) => {
    const devServer = socket.connectToServer();
    socket.onMessage((message) => devServer.send(message));
    devServer.onMessage((message) => {
      if (typeof message === 'string') token ??= /"actions":\{"token":"([\w-]+)"\}/.exec(message)?.[1];
      if (typeof message === 'string' && message.includes('"full-reload"')) return;
      socket.send(message);
    });
  });
  return { browser, page, token: () => token };
}
