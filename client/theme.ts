/** Runs in <head> before first paint: the saved theme, else the OS preference (no flash of the wrong theme). */
export const THEME_SCRIPT = `try{var t=localStorage.getItem("theme");var d=t?t==="dark":matchMedia("(prefers-color-scheme: dark)").matches;document.documentElement.classList.toggle("dark",d)}catch(e){}`;
