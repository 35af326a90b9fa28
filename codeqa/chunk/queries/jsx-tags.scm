; JSX elements name components (javascript and tsx inherit this).

(jsx_opening_element name: [(identifier) (member_expression)] @name.reference.class)
(jsx_self_closing_element name: [(identifier) (member_expression)] @name.reference.class)
