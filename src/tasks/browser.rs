//! Yielding to the browser from an async task.
//!
//! On the web, Bevy's task pool runs tasks on the page's one thread as *microtasks*
//! (`web-task`). A task that yields with `futures_lite::future::yield_now()` wakes itself at
//! once, and its next poll is queued as another microtask; the browser runs all microtasks
//! before it draws or handles input, so a search that yields that way still freezes the page
//! until it is done. Here the task instead waits for a message posted to itself on a
//! `MessageChannel`: that arrives as a new *task* of the event loop, after which the browser
//! may draw a frame. (`setTimeout(0)` would do too, but nested timeouts are clamped to 4 ms
//! each; React's scheduler yields the same way for the same reason.)
use std::{
    cell::RefCell,
    future::poll_fn,
    rc::Rc,
    task::{Poll, Waker},
};

use wasm_bindgen::{JsCast, JsValue, closure::Closure, prelude::wasm_bindgen};

#[wasm_bindgen]
extern "C" {
    type MessageChannel;
    #[wasm_bindgen(constructor)]
    fn new() -> MessageChannel;
    #[wasm_bindgen(method, getter)]
    fn port1(this: &MessageChannel) -> MessagePort;
    #[wasm_bindgen(method, getter)]
    fn port2(this: &MessageChannel) -> MessagePort;

    type MessagePort;
    #[wasm_bindgen(method, setter)]
    fn set_onmessage(this: &MessagePort, handler: &js_sys::Function);
    #[wasm_bindgen(method, js_name = postMessage)]
    fn post_message(this: &MessagePort, message: &JsValue);
}

/// One channel for the page's lifetime: `port1` receives, its handler wakes the waiting tasks.
struct Channel {
    sender: MessagePort,
    waiting: Rc<RefCell<Vec<Waker>>>,
    _receiver: MessagePort,
    _handler: Closure<dyn FnMut()>,
}

impl Channel {
    fn new() -> Channel {
        let channel = MessageChannel::new();
        let waiting: Rc<RefCell<Vec<Waker>>> = Rc::default();
        let wake = waiting.clone();
        let handler = Closure::<dyn FnMut()>::new(move || {
            // Take the list first: a woken task may wait again before this returns.
            let wakers = std::mem::take(&mut *wake.borrow_mut());
            wakers.into_iter().for_each(Waker::wake);
        });
        let receiver = channel.port1();
        receiver.set_onmessage(handler.as_ref().unchecked_ref());
        Channel {
            sender: channel.port2(),
            waiting,
            _receiver: receiver,
            _handler: handler,
        }
    }
}

thread_local! {
    static CHANNEL: Channel = Channel::new();
}

/// Completes in a later task of the browser's event loop, so the browser can draw and handle
/// input in between.
pub async fn yield_now() {
    let mut posted = false;
    poll_fn(|cx| {
        if posted {
            return Poll::Ready(());
        }
        posted = true;
        CHANNEL.with(|c| {
            c.waiting.borrow_mut().push(cx.waker().clone());
            c.sender.post_message(&JsValue::NULL);
        });
        Poll::Pending
    })
    .await;
}
