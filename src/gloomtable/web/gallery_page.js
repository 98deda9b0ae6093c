// The served gallery page's entry (a file, not inline: the page's policy allows no inline script).

import { loadCatalog, preferredLanguage } from "./i18n.js";
import { startGallery } from "./gallery.js";

await loadCatalog(preferredLanguage());
startGallery(document.getElementById("gallery"));
