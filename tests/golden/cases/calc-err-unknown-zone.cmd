calc --zone Foo=1G
