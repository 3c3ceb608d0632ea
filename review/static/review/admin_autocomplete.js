// The admin's search boxes (select2) are named after their field's label. Select2 names
// its box by the value chosen only, which is empty until something is chosen.
(function () {
  "use strict";
  function nameSearchBoxes() {
    document.querySelectorAll("select.admin-autocomplete").forEach(function (select) {
      const label = document.querySelector('label[for="' + select.id + '"]');
      const container = select.nextElementSibling;
      const box = container && container.querySelector('.select2-selection[role="combobox"]');
      if (!label || !box) { return; }
      if (!label.id) { label.id = select.id + "-label"; }
      const others = (box.getAttribute("aria-labelledby") || "").split(" ").filter(function (id) {
        return id && id !== label.id;
      });
      box.setAttribute("aria-labelledby", [label.id].concat(others).join(" "));
      // The read-only text inside the box that shows the choice: the label, then the choice.
      const shown = box.querySelector('[role="textbox"]');
      if (shown && shown.id) { shown.setAttribute("aria-labelledby", label.id + " " + shown.id); }
    });
  }
  // After the admin's own ready handler has made the search boxes.
  if (window.django && window.django.jQuery) { window.django.jQuery(nameSearchBoxes); }
  else { document.addEventListener("DOMContentLoaded", nameSearchBoxes); }
})();
