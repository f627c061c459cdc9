// The seat's live connection: a WebSocket that the server sends the seat's state over
// at once and after every change of the game. When it drops, it is opened again after
// a growing pause (0.5 s doubling to 15 s, with jitter so that many pages do not come
// back at once), and at once when the browser comes back online or the tab is shown
// again. The state sent on opening is the resync: nothing is lost while away. While it
// is open, a ping every 10 s is the heartbeat by which the server tells the other
// player that this one is here.

const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 15000;
const NO_SEAT_CODE = 4404; // the server's close code for a link that names no seat
const TOO_MANY_CODE = 4429; // the server's close code when the seat has too many connections open
const HEARTBEAT_MS = 10000; // a ping this often tells the server the seat's player is here

/**
 * Keeps one seat's WebSocket open.
 *
 * onState(state): a SeatState arrived.
 * onStatus({status, retryIn}): status is "connecting", "live", "waiting" (retryIn: ms
 *   until the next try), "no-seat" (the link names no seat: no retry), "too-many" (the
 *   seat is open in too many tabs: no retry until asked, or the tab is shown again) or
 *   "stopped".
 */
export class LiveSeat {
  constructor(url, { onState, onStatus }) {
    this.url = url;
    this.onState = onState;
    this.onStatus = onStatus;
    this.socket = null;
    this.failures = 0;
    this.timer = null;
    this.heartbeat = null;
    this.stopped = false;
    this.wake = () => {
      if (document.visibilityState === "visible" && !this.stopped && this.socket === null) {
        this.connectNow();
      }
    };
  }

  start() {
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
    this.connectNow();
  }

  stop() {
    this.stopped = true;
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    clearTimeout(this.timer);
    clearInterval(this.heartbeat);
    if (this.socket) this.socket.close(1000, "page closed");
    this.socket = null;
    this.onStatus({ status: "stopped" });
  }

  connectNow() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped || this.socket !== null) return;
    this.onStatus({ status: "connecting" });
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.failures = 0;
      this.onStatus({ status: "live" });
      clearInterval(this.heartbeat);
      this.heartbeat = setInterval(() => {
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" }));
      }, HEARTBEAT_MS);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return; // not a message of the protocol: nothing to show
      }
      if (message && message.type === "state") this.onState(message);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(this.heartbeat);
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      if (event.code === NO_SEAT_CODE) {
        this.stopped = true;
        this.onStatus({ status: "no-seat" });
        return;
      }
      if (event.code === TOO_MANY_CODE) {
        this.onStatus({ status: "too-many" });
        return;
      }
      this.retryLater();
    });
  }

  retryLater() {
    const pause = Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** this.failures);
    const retryIn = Math.round(pause * (0.75 + Math.random() * 0.5));
    this.failures += 1;
    this.onStatus({ status: "waiting", retryIn });
    this.timer = setTimeout(() => this.connectNow(), retryIn);
  }
}
