def fht(*a): pass
def ifht(*a): pass
