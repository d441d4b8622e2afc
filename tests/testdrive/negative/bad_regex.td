# expect: bad_regex.td:3: FAILED: $ set-regex
# expect: invalid regex
$ set-regex match=[unclosed replacement=x
