// A player's notifications (src/server/API.md "Notifications") with the player's one
// token: the list, marking them read, and the stream of new ones, read with fetch (the
// token goes in Authorization, never in a URL).
import { request, getEvents } from './http.js';
import { playerToken } from '../local/storage.js';

export { playerToken };

/** GET /api/me/notifications: {notifications, unread}. */
export const listNotices = () => request('GET', '/api/me/notifications', { token: playerToken() });

/** POST /api/me/notifications/read: every one up to `upto` (none: all) read. */
export const readNotices = (upto) =>
  request('POST', '/api/me/notifications/read', { body: upto ? { upto } : {}, token: playerToken() });

/** The player's stream: onEvent('unread', {unread}) and onEvent('notice', notification)
 *  until it ends (or `signal` aborts it). */
export async function watchNotices(onEvent, signal) {
  await getEvents('/api/me/events', playerToken(), (event, data) => {
    let value;
    try {
      value = JSON.parse(data);
    } catch {
      return;
    }
    onEvent(event, value);
  }, signal);
}
