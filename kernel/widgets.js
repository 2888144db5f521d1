(() => {
    // One RolePrint input widget ({{.Kind}}): its value goes to the Go
    // program at the address below on every edit, as GoNB's own widgets do.
    const el = document.getElementById("{{.HTMLID}}");
    if (!el) {
        return;
    }
    const gonb_comm = globalThis?.gonb_comm;
    if (!gonb_comm) {
        console.error("RolePrint {{.Kind}} {{.HTMLID}}: no connection to GoNB, the widget will not update.");
        return;
    }
    const value = gonb_comm.newSyncedVariable("{{.Address}}", el.value);
    el.addEventListener("input", () => value.set(el.value));
    el.addEventListener("change", () => {
        // Keeps the value in the saved notebook's HTML.
        if (el.tagName === "TEXTAREA") {
            el.textContent = el.value;
        } else {
            el.setAttribute("value", el.value);
        }
        value.set(el.value);
    });
    value.subscribe((v) => {
        if (el.value !== String(v)) {
            el.value = v;
        }
    });
})();
